// The README's first command in a real terminal (tmux): `pnpm start`, then Ctrl-C. The last
// thing on the screen is the server's own "stopped" line, not pnpm's "ELIFECYCLE Command
// failed" (a Ctrl-C that killed a wrapper around node before the server had stopped).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { eventually } from "../../testing/test-league.ts";

const ROOT = join(import.meta.dirname, "../../../..");
const ENSURE = join(ROOT, "tooling/scripts/ensure-system-packages.sh");
const socket = `gauntlet-test-${process.pid}`;
const session = "start";
const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-terminal-"));

// The pnpm that runs this test (a package script), else the README's route.
const pnpm = process.env.npm_execpath?.endsWith("pnpm.cjs")
  ? `${process.execPath} ${process.env.npm_execpath}`
  : "npx -y pnpm@10";

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session);

beforeAll(() => {
  execFileSync("bash", [ENSURE, "tmux"], { stdio: "inherit" });
  tmux("new-session", "-d", "-s", session, "-x", "200", "-y", "60", "bash --norc --noprofile");
});

afterAll(() => {
  try {
    tmux("kill-server");
  } catch {
    // Already gone.
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("`pnpm start` in a terminal", () => {
  it("ends on Ctrl-C with the server's own last line", async () => {
    tmux(
      "send-keys",
      "-t",
      session,
      `cd ${ROOT} && ${pnpm} start --port 0 --data-dir ${dataDir} --no-demo --no-runner; echo "exit=$?"`,
      "Enter",
    );
    await eventually("the banner on the screen", async () =>
      screen().includes("Ctrl-C stops.") ? true : null,
    );
    tmux("send-keys", "-t", session, "C-c");
    const after = await eventually("the shell's prompt after the server's last line", async () => {
      const text = screen();
      return /Gauntlet stopped\./.test(text) && /bash-[\d.]+[#$] *$/.test(text.trimEnd())
        ? text
        : null;
    });
    expect(after).toMatch(/SIGINT: shutting down…\nGauntlet stopped\.\n/);
    expect(after).not.toContain("ELIFECYCLE");
    expect(after).not.toContain("Command failed");
  });
});

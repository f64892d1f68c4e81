// The terminal UI in a real terminal: tmux runs `gauntlet-watch` against a started server whose
// demo league plays by itself; the test reads the screen with capture-pane and types with
// send-keys, as a person would.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const SERVER_MAIN = join(ROOT, "apps/server/src/cli/main.ts");
const WATCH_MAIN = join(import.meta.dirname, "../src/bin.ts");
const SESSION = `gauntlet-watch-${process.pid}`;
// Generous: the machine may be busy; every wait ends as soon as its condition holds.
const PATIENCE_MS = 180_000;

let dir = "";
let server: ChildProcess | undefined;
let url = "";

function tmux(...args: string[]): string {
  return execFileSync("tmux", args, { encoding: "utf8" });
}

const screen = () => tmux("capture-pane", "-p", "-t", SESSION);

async function waitForScreen(what: string, holds: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + PATIENCE_MS;
  let text = "";
  while (Date.now() < deadline) {
    text = screen();
    if (holds(text)) return text;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the screen never showed ${what}; it shows:\n${text}`);
}

const roundNumber = (text: string) =>
  Number(/Round (\d+) (?:running|completed|pending)/.exec(text)?.[1] ?? Number.NaN);

beforeAll(async () => {
  execFileSync("bash", [join(ROOT, "tooling/scripts/ensure-system-packages.sh"), "tmux"], {
    stdio: "inherit",
  });
  dir = mkdtempSync(join(tmpdir(), "gauntlet-watch-e2e-"));
  server = spawn(
    process.execPath,
    [SERVER_MAIN, "start", "--port", "0", "--data-dir", join(dir, "data")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    server?.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /alt host, at the root\):\s+(http:\/\/\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    server?.on("exit", (code) => reject(new Error(`gauntlet-server start exited ${code}: ${out}`)));
  });
}, PATIENCE_MS);

afterAll(async () => {
  try {
    tmux("kill-session", "-t", SESSION);
  } catch {
    // Already gone: q ended it.
  }
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.on("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

it(
  "shows the demo league's standings moving by themselves, opens details, shows help, resizes and quits",
  async () => {
    const command = [
      // CI set, as in a shell that exports it: the UI still draws live on a terminal.
      `env -u GAUNTLET_TOKEN -u GAUNTLET_SERVER CI=true NO_COLOR=1 XDG_CONFIG_HOME=${join(dir, "config")}`,
      `${process.execPath} ${WATCH_MAIN} --server ${url} --league 'GridRush demo league' --division Premier`,
      "; echo EXIT=$?; sleep 60",
    ].join(" ");
    tmux("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", command);

    // The standings appear with the players' names.
    // "● live": subscribed to the league's events over the WebSocket.
    const first = await waitForScreen(
      "the Premier standings with the demo players, live",
      (t) =>
        t.includes("Standings · Premier") &&
        t.includes("Greedy A") &&
        t.includes("● live") &&
        !Number.isNaN(roundNumber(t)),
    );
    const startRound = roundNumber(first);

    // The round number moves on without a keypress.
    await waitForScreen(`a round after round ${startRound}`, (t) => roundNumber(t) > startRound);

    // Enter opens the selected player's detail; Esc returns to the standings.
    tmux("send-keys", "-t", SESSION, "Enter");
    await waitForScreen(
      "a player's detail",
      (t) => t.includes("Recent rounds") && /rank \d+/.test(t),
    );
    tmux("send-keys", "-t", SESSION, "Escape");
    await waitForScreen(
      "the standings again",
      (t) => t.includes("Standings · Premier") && !t.includes("Recent rounds"),
    );

    // ? shows the keys; Esc closes the help.
    tmux("send-keys", "-t", SESSION, "?");
    await waitForScreen("the help", (t) => t.includes("move the selection") && t.includes("quit"));
    tmux("send-keys", "-t", SESSION, "Escape");
    await waitForScreen("the help closed", (t) => !t.includes("move the selection"));

    // At 80×24 the standings stay, and nothing spills past the edge.
    tmux("resize-window", "-t", SESSION, "-x", "80", "-y", "24");
    const small = await waitForScreen(
      "the standings at 80×24",
      (t) =>
        t.includes("Standings · Premier") &&
        t.includes("Greedy") &&
        t.split("\n").every((line) => [...line].length <= 80),
    );
    expect(small.split("\n").length).toBeLessThanOrEqual(25);

    // q quits with exit 0.
    tmux("send-keys", "-t", SESSION, "q");
    await waitForScreen("the exit code", (t) => t.includes("EXIT="));
    expect(screen()).toContain("EXIT=0");
  },
  PATIENCE_MS * 4,
);

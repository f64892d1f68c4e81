// `pnpm install-cli` as a new policy author uses it: the installed `gauntlet` runs from any
// directory, its bash completion completes it, relative paths mean the directory the user is in
// (also through `pnpm gauntlet`, which pnpm runs at the repository's root).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { json, MAIN, newConfigHome, runCommand } from "./run-cli.ts";

const repo = join(import.meta.dirname, "../../..");
const installer = join(repo, "apps/cli/scripts/install-cli.ts");
const gridrush = join(repo, "examples/coworlds/gridrush");

let server: TestServer;
let token: string;
let home: string;
let bin: string;
let elsewhere: string;

const PATH = () => `${bin}:${process.env.PATH ?? ""}`;

function gauntlet(args: string[], cwd: string) {
  return runCommand("gauntlet", args, {
    cwd,
    env: {
      PATH: PATH(),
      GAUNTLET_SERVER: server.url,
      GAUNTLET_TOKEN: token,
      XDG_CONFIG_HOME: home,
      XDG_CACHE_HOME: home,
    },
  });
}

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  token = (await server.newUser()).token;
  home = newConfigHome();
  bin = mkdtempSync(join(tmpdir(), "gauntlet-bin-"));
  elsewhere = mkdtempSync(join(tmpdir(), "gauntlet-elsewhere-"));
  execFileSync(process.execPath, [installer, "--bin-dir", bin], {
    env: { ...process.env, XDG_CACHE_HOME: home },
    stdio: "pipe",
  });
});
afterAll(async () => {
  await server.close();
  for (const dir of [home, bin, elsewhere]) rmSync(dir, { recursive: true, force: true });
});

describe("the installed gauntlet", () => {
  it("answers --help and --version from a directory outside the clone", async () => {
    const help = await gauntlet(["--help"], elsewhere);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^Usage: gauntlet/);
    expect((await gauntlet(["--version"], elsewhere)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("is completed by its bash completion, falling back to file names", () => {
    const probe = `eval "$(gauntlet completion bash)"
COMP_WORDS=(gauntlet leag); COMP_CWORD=1; _gauntlet; echo "\${COMPREPLY[*]}"
complete -p gauntlet`;
    const out = execFileSync("bash", ["-c", probe], {
      encoding: "utf8",
      env: { ...process.env, PATH: PATH(), XDG_CACHE_HOME: home },
    });
    expect(out.split("\n")[0]).toBe("league");
    expect(out).toMatch(/complete .*-o default .*-F _gauntlet gauntlet/);
  });

  it("reads a relative path from where the user stands", async () => {
    const uploaded = await gauntlet(
      ["policy", "upload", "./players", "--name", "rel-bot", "--run", "node random.ts", "--json"],
      gridrush,
    );
    expect((json(uploaded) as { version: number }).version).toBe(1);
    const missing = await gauntlet(
      ["policy", "upload", "./players", "--name", "rel-bot", "--run", "node random.ts"],
      elsewhere,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("players");
  });

  it("`pnpm gauntlet` (run at the root) also reads paths from where pnpm was called", async () => {
    const result = await runCommand(
      process.execPath,
      [
        MAIN,
        "policy",
        "upload",
        "players",
        "--name",
        "pnpm-bot",
        "--run",
        "node random.ts",
        "--json",
      ],
      {
        cwd: repo,
        env: {
          npm_lifecycle_event: "gauntlet",
          INIT_CWD: gridrush,
          GAUNTLET_SERVER: server.url,
          GAUNTLET_TOKEN: token,
          XDG_CONFIG_HOME: home,
        },
      },
    );
    expect((json(result) as { version: number }).version).toBe(1);
  });

  it("is removed by --remove", () => {
    execFileSync(process.execPath, [installer, "--bin-dir", bin, "--remove"], { stdio: "pipe" });
    expect(existsSync(join(bin, "gauntlet"))).toBe(false);
  });
});

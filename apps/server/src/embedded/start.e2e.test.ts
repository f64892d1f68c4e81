// `gauntlet-server start` out of the box: on an empty data directory it registers the example
// coworld (with its play modules) and runs an embedded runner, so that certifying the example
// works with nothing else.
// The command uses SQLite in a temporary directory whatever DATABASE_URL says, so the
// PostgreSQL run of the server's suites skips it rather than repeat it.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import type { Certification, Coworld, PlayModule, Token } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { embeddedWorkDir } from "./embedded-runner.ts";
import { LEGACY_TOKEN_FILE } from "./runner-token.ts";

const MAIN = join(import.meta.dirname, "../cli/main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-embedded-"));
const env = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  GAUNTLET_LOG_LEVEL: "warn",
};
const started: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function until<T>(
  what: () => string,
  probe: () => Promise<T | null> | T | null,
  timeoutMs = PATIENCE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function start(args: string[] = []) {
  const child = spawn(
    process.execPath,
    [MAIN, "start", "--port", "0", "--data-dir", dataDir, ...args],
    { env },
  );
  started.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return {
    child,
    exited,
    output: () => output,
    url: () =>
      until(
        () => `the server's address in:\n${output}`,
        () => /alt host, at the root\):\s+(http:\/\/\S+)/.exec(output)?.[1] ?? null,
      ),
  };
}

function adminToken(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [MAIN, "tokens", "create", "--email", "admin@localhost", "--data-dir", dataDir],
      { env },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`tokens create exited ${code}`)),
    );
  });
}

const runnerInstances = () => {
  const dir = join(embeddedWorkDir(dataDir), "runners");
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe.skipIf(process.env.DATABASE_URL)("gauntlet-server start (embedded defaults)", () => {
  it("registers the example coworld on an empty data directory and certifies it with its embedded runner", async () => {
    // --verbose: the runner's line per job shows when the episode has been reported.
    const server = start(["--verbose"]);
    const url = await server.url();
    expect(server.output()).toMatch(/Example coworld registered: gridrush 0\.1\.0 \(cow_/);
    await until(
      () => server.output(),
      () => (/\[runner\] \S+ info {2}runner started/.test(server.output()) ? true : null),
    );
    const api = client(url, await adminToken());

    const coworlds = await api.get<Coworld[]>("/v2/coworlds?name=gridrush");
    expect(coworlds.body).toHaveLength(1);
    const coworld = coworlds.body[0];
    if (!coworld) throw new Error("no coworld");
    expect(coworld).toMatchObject({ version: "0.1.0", has_bundle: true, canonical: true });
    // Its browser client and replay viewer come with it, served as they are in the example.
    const modules = (await api.get<PlayModule[]>(`/v2/coworlds/${coworld.id}/play-modules`)).body;
    expect(modules.map((m) => m.kind).sort()).toEqual(["player_client", "replay_viewer"]);
    for (const m of modules)
      expect((await fetch(m.entry_url)).headers.get("content-type")).toMatch(/^text\/html/);
    expect((await api.post<Certification>(`/v2/coworlds/${coworld.id}/certify`)).status).toBe(200);
    const verdict = await until(
      () => server.output(),
      async () => {
        const state = (await api.get<Certification>(`/v2/coworlds/${coworld.id}/certification`))
          .body;
        return state.state === "certified" || state.state === "failed" ? state : null;
      },
    );
    expect(verdict).toMatchObject({ state: "certified", error: null });
    await until(
      () => server.output(),
      () => (/\[runner\] \S+ info {2}job completed job=/.test(server.output()) ? true : null),
    );

    // The runner is a child process: stopping the server stops it, and it cleans up after itself.
    const [instance] = runnerInstances();
    const runnerPid = Number(instance?.split("-")[0]);
    expect(Number.isInteger(runnerPid)).toBe(true);
    // Its token came over a pipe: it is in neither its environment nor a file of the data directory.
    const environ = readFileSync(`/proc/${runnerPid}/environ`, "utf8");
    expect(environ).not.toContain("gntm_");
    expect(environ).not.toContain("GAUNTLET_TOKEN");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(() => process.kill(runnerPid, 0)).toThrow();
    expect(runnerInstances()).toEqual([]);
    expect(existsSync(join(dataDir, LEGACY_TOKEN_FILE))).toBe(false);
  });

  it("on a later start registers nothing again and gives the runner a fresh token, revoking the old one; --no-runner starts none", async () => {
    // A token file an older version left is removed.
    writeFileSync(join(dataDir, LEGACY_TOKEN_FILE), "gntm_left_behind\n");
    const again = start(["--verbose"]);
    const url = await again.url();
    await until(
      () => again.output(),
      () => (again.output().includes("runner started") ? true : null),
    );
    expect(again.output()).not.toContain("Example coworld registered");
    const api = client(url, await adminToken());
    expect((await api.get<Coworld[]>("/v2/coworlds?name=gridrush")).body).toHaveLength(1);
    expect(existsSync(join(dataDir, LEGACY_TOKEN_FILE))).toBe(false);
    const machineTokens = (await api.get<Token[]>("/v2/tokens")).body.filter(
      (t) => t.machine_name === "embedded-runner",
    );
    expect(machineTokens).toHaveLength(1);
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);

    const bare = start(["--no-runner"]);
    await bare.url();
    expect(bare.output()).toContain("Runner: none (--no-runner)");
    bare.child.kill("SIGTERM");
    expect(await bare.exited).toBe(0);
    expect(bare.output()).not.toContain("[runner]");
    expect(runnerInstances()).toEqual([]);
  });
});

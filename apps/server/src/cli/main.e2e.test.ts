// The server's command line as an operator uses it: real processes on one data directory.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";

const MAIN = join(import.meta.dirname, "main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-cli-"));
const baseEnv = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  GAUNTLET_LOG_LEVEL: "warn",
};

function run(
  args: string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: baseEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

let server: ChildProcessWithoutNullStreams;
let output = "";
let url = "";

beforeAll(async () => {
  server = spawn(process.execPath, [MAIN, "start", "--port", "0", "--data-dir", dataDir], {
    env: baseEnv,
  });
  server.stdout.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + PATIENCE_MS;
  while (!/alt host, at the root\):\s+(http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  url = /alt host, at the root\):\s+(http:\/\/\S+)/.exec(output)?.[1] ?? "";
});

afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("gauntlet-server", () => {
  it("creates an admin on the first start of an empty data directory and says how to sign in", () => {
    expect(output).toContain("First start: an admin account was created.");
    expect(output).toMatch(/email:\s+admin@localhost/);
    expect(output).toMatch(/password:\s+\S{12,}/);
    expect(output).toContain("/observatory");
    expect(statSync(join(dataDir, "first-admin.txt")).mode & 0o777).toBe(0o600);
  });

  it("adds a user and creates a token while the server runs on the same storage", async () => {
    const added = await run(
      ["users", "add", "--email", "ops@example.test", "--data-dir", dataDir],
      "s3cret-password\n",
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const created = await run([
      "tokens",
      "create",
      "--email",
      "ops@example.test",
      "--json",
      "--data-dir",
      dataDir,
    ]);
    expect(created.code).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const who = await client(url, token).get<{ subject_type: string; user_email: string }>(
      "/whoami",
    );
    expect(who.body).toMatchObject({ subject_type: "user", user_email: "ops@example.test" });
    const machine = await run([
      "tokens",
      "create",
      "--email",
      "ops@example.test",
      "--machine",
      "runner-a",
      "--data-dir",
      dataDir,
    ]);
    expect(machine.code).toBe(0);
    const whoMachine = await client(url, machine.stdout.trim()).get<{ subject_type: string }>(
      "/whoami",
    );
    expect(whoMachine.body.subject_type).toBe("machine");
  });

  it("answers bad input with one plain line and a non-zero exit, changing nothing", async () => {
    const unknown = await run([
      "tokens",
      "create",
      "--email",
      "nobody@example.test",
      "--data-dir",
      dataDir,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("gauntlet-server: no user with email nobody@example.test\n");
    const dup = await run(
      ["users", "add", "--email", "ops@example.test", "--data-dir", dataDir],
      "another-password\n",
    );
    expect(dup.code).toBe(1);
    expect(dup.stderr).toBe("gauntlet-server: a user with email ops@example.test already exists\n");
    const short = await run(
      ["users", "add", "--email", "x@example.test", "--data-dir", dataDir],
      "short\n",
    );
    expect(short.code).toBe(1);
    expect(short.stderr.trim().split("\n")).toHaveLength(1);
    const port = await run(["start", "--port", "eighty"]);
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain("expected a port number");
  });

  it("sets up a data directory nothing has used yet when a user is added to it", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "gauntlet-cli-fresh-"));
    try {
      const added = await run(
        ["users", "add", "--email", "first@example.test", "--admin", "--data-dir", fresh],
        "first-password-123\n",
      );
      expect(added.stderr).toBe("");
      expect(added.stdout).toMatch(/^added first@example.test \(admin\) as user_/);
      const token = await run([
        "tokens",
        "create",
        "--email",
        "first@example.test",
        "--data-dir",
        fresh,
      ]);
      expect(token.stdout).toMatch(/^gnt_\S+\n$/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it("applies migrations on demand", async () => {
    const migrated = await run(["migrate", "--data-dir", dataDir]);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain("migrations applied (sqlite");
  });

  it("shuts down gracefully on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) =>
      server.on("exit", (code) => resolve(code)),
    );
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toMatch(/SIGTERM: shutting down…\nGauntlet stopped\.\n$/);
  });
});

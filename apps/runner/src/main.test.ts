// The runner's command line as an operator meets it: a real process.
import { spawn } from "node:child_process";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "main.ts"), ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("gauntlet-runner", () => {
  it("answers bad flags with one plain line on stderr and exit code 2", async () => {
    const bad = await run([
      "--server",
      "http://127.0.0.1:9",
      "--token",
      "t",
      "--concurrency",
      "-1",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^gauntlet-runner: [^\n]+\n$/);
    expect(bad.stdout).toBe("");
    const missing = await run([]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: "gauntlet-runner: no server: pass --server <url> or set GAUNTLET_SERVER\n",
    });
  });

  it("exits 1 with one line when the server refuses its token", async () => {
    const { startTestServer } = await import("@gauntlet/server/testing");
    const server = await startTestServer();
    try {
      const user = await server.newUser();
      const refused = await run(
        ["--server", server.url, "--work-dir", join(server.testStore.dataDir, "runner")],
        { GAUNTLET_TOKEN: user.token },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^gauntlet-runner: the server refused this runner's token \([^\n]*\); a runner needs a machine token\n$/,
      );
      expect(refused.stdout).not.toContain(user.token);
    } finally {
      await server.close();
    }
  });
});

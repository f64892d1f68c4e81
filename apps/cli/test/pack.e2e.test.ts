// As npm users get it: pack core, sdk, tui and cli, install the tarballs into an empty npm
// project, and run the installed `gauntlet` (built dist/, nothing from the workspace).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { json, runCommand } from "./run-cli.ts";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../../..");
let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startTestServer();
  work = mkdtempSync(join(tmpdir(), "gauntlet-pack-"));
}, 600_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

it("installs from packed tarballs into an empty npm project and runs", async () => {
  const tarballs = join(work, "tarballs");
  for (const dir of ["packages/core", "packages/sdk", "apps/tui", "apps/cli"]) {
    await run("npx", ["-y", "pnpm@10", "pack", "--pack-destination", tarballs], {
      cwd: join(root, dir),
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  const files = readdirSync(tarballs).filter((f) => f.endsWith(".tgz"));
  expect(files.sort()).toEqual([
    "gauntlet-cli-0.1.0.tgz",
    "gauntlet-core-0.1.0.tgz",
    "gauntlet-sdk-0.1.0.tgz",
    "gauntlet-tui-0.1.0.tgz",
  ]);

  const project = join(work, "project");
  await run("mkdir", ["-p", project]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "empty", version: "1.0.0", private: true }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", ...files.map((f) => join(tarballs, f))], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });

  const installed = JSON.parse(
    readFileSync(join(project, "node_modules/@gauntlet/cli/package.json"), "utf8"),
  ) as { bin: Record<string, string> };
  expect(installed.bin.gauntlet).toBe("./dist/main.js");

  // The bin's `#!/usr/bin/env node` finds the pinned Node first on PATH.
  const bin = join(project, "node_modules/.bin/gauntlet");
  const env = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    XDG_CONFIG_HOME: join(work, "home"),
  };
  const help = await runCommand(bin, ["--help"], { cwd: project, env });
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/Usage: gauntlet/);
  expect(help.stdout).toContain("leaderboard");

  const sdk = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
    elevated: true,
  });
  const game = await sdk.games.create({ body: { name: "Packed" } });
  await sdk.leagues.create({ body: { name: "Packed league", game_id: game.id, public: true } });
  const listed = await runCommand(bin, ["league", "list", "--json", "--server", server.url], {
    cwd: project,
    env: { ...env, GAUNTLET_TOKEN: server.adminToken },
  });
  expect((json(listed) as { name: string }[]).map((l) => l.name)).toContain("Packed league");
  expect(json(listed)).toEqual(await sdk.leagues.list());
}, 900_000);

// The whole path a new user takes, through `gauntlet` only: sign in on the server's real
// sign-in page (headless Chromium), upload a policy, submit it to a league, and find it on
// the leaderboard. The test plays the runner (the episodes' results) through the SDK.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";

import { createClient } from "@gauntlet/sdk";
import { launchTestBrowser, startTestServer, type TestServer } from "@gauntlet/server/testing";

import { cleanEnv, json, MAIN, newConfigHome, runCli } from "./run-cli.ts";

const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");
const PASSWORD = "correct horse battery";

let server: TestServer;
let browser: Browser;
let home: string;

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

it("signs in through the browser, uploads a policy, submits it and sees it on the leaderboard", async () => {
  const user = await server.newUser();
  const env = { XDG_CONFIG_HOME: home };
  const gauntlet = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { env: { ...env, ...extra } });

  // 1. `gauntlet auth login --no-browser` prints the sign-in address and waits for the browser.
  const login = spawn(
    process.execPath,
    [MAIN, "--server", server.url, "auth", "login", "--no-browser"],
    { env: cleanEnv(env) },
  );
  let stderr = "";
  login.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => login.on("close", resolve));
  let address: string | undefined;
  // However long a busy machine takes to print it (the test's timeout is the limit).
  while (!address) {
    address = /(http:\/\/\S+\/cli-auth\?\S+)/.exec(stderr)?.[1];
    if (!address) await new Promise((r) => setTimeout(r, 100));
  }
  expect(address, stderr).toBeDefined();

  const page = await browser.newPage();
  await page.goto(address ?? "");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Signed in" }).waitFor();
  expect(await exited).toBe(0);
  expect(stderr).toContain(`as ${user.email}`);
  const saved = JSON.parse(readFileSync(join(home, "gauntlet", "credentials.json"), "utf8")) as {
    default_server: string;
    servers: Record<string, { token: string }>;
  };
  expect(saved.default_server).toBe(server.url);
  const status = await gauntlet(["auth", "status"]);
  expect(status.code).toBe(0);
  expect(status.stdout).toContain(user.email);

  // A league to play in (the admin's part, also through gauntlet).
  const admin = { GAUNTLET_TOKEN: server.adminToken, GAUNTLET_SERVER: server.url };
  const coworld = json(await gauntlet(["coworld", "upload", gridrush, "--json"], admin)) as {
    game_id: string;
  };
  const league = json(
    await gauntlet(
      [
        "league",
        "create",
        "--name",
        "E2E",
        "--game",
        coworld.game_id,
        "--division",
        "Top",
        "--public",
        "--json",
      ],
      admin,
    ),
  ) as { id: string };
  const [division] = json(
    await gauntlet(["division", "list", "--league", league.id, "--json"]),
  ) as { id: string }[];

  // 2. Upload two policies and submit them, as the signed-in user (no token in the environment).
  for (const name of ["greedy", "wanderer"]) {
    const player = json(await gauntlet(["auth", "player", "create", `e2e-${name}`, "--json"])) as {
      id: string;
    };
    expect(
      (
        await gauntlet([
          "policy",
          "upload",
          join(gridrush, "players"),
          "--name",
          `e2e-${name}`,
          "--run",
          `node ${name}.ts`,
          "--player",
          player.id,
        ])
      ).code,
    ).toBe(0);
    const submitted = await gauntlet([
      "submit",
      `e2e-${name}`,
      "--league",
      league.id,
      "--player",
      player.id,
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stderr).toContain("placed");
  }

  // 3. A round: triggered through gauntlet, played by the test as the runner.
  const triggered = json(
    await gauntlet(["league", "trigger-round", league.id, "--json"], admin),
  ) as { rounds: { id: string }[] };
  const roundId = triggered.rounds[0]?.id ?? "";
  const sdk = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
    elevated: true,
  });
  const runner = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: await server.machineToken("e2e-runner"),
  });
  for (
    let i = 0;
    i < 10 && (await sdk.rounds.get({ round_id: roundId })).status !== "completed";
    i++
  ) {
    const { jobs } = await runner.runner.lease({
      body: { runner_id: "e2e", capacity: 8, runtimes: ["process"], isolation: "sandbox" },
    });
    for (const job of jobs)
      await runner.runner.complete({
        job_id: job.job_id,
        lease_token: job.lease_token,
        body: {
          runner_id: "e2e",
          results: {
            scores: job.players.map((p) => 10 - p.position),
            winner_slot: 0,
            turns: 40,
            seed: 1,
          },
        },
      });
  }

  // 4. The leaderboard shows both, for people and for scripts.
  const table = await gauntlet(["leaderboard", division?.id ?? ""]);
  expect(table.code).toBe(0);
  expect(table.stdout).toContain("e2e-greedy");
  expect(table.stdout).toContain("e2e-wanderer");
  const rows = json(await gauntlet(["leaderboard", division?.id ?? "", "--json"])) as {
    player_name: string;
    rounds_played: number;
  }[];
  expect(rows.map((r) => [r.player_name, r.rounds_played]).sort()).toEqual([
    ["e2e-greedy", 1],
    ["e2e-wanderer", 1],
  ]);
});

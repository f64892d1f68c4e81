// Every command against a real server (started on a free port), run as a child process.
// `--json` output is compared with the same call made through the SDK.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ConflictError, createClient } from "@gauntlet/sdk";
import { packDirectory, startTestServer, type TestServer } from "@gauntlet/server/testing";

import { json, newConfigHome, runCli, type CliOptions } from "./run-cli.ts";

const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");

let server: TestServer;
let home: string;
let user: { id: string; email: string; token: string };
let admin: ReturnType<typeof createClient>;
let sdk: ReturnType<typeof createClient>;

/** An admin's token acts as an admin only when elevated; the header means nothing to others. */
function client(token: string | null) {
  return createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token,
    elevated: true,
  });
}

/** gauntlet as the user (or as `token`), against the test server. */
function cli(args: readonly string[], options: CliOptions & { token?: string } = {}) {
  return runCli(args, {
    ...options,
    env: {
      GAUNTLET_SERVER: server.url,
      GAUNTLET_TOKEN: options.token ?? user.token,
      XDG_CONFIG_HOME: home,
      ...options.env,
    },
  });
}

/** Plays the runner: completes every leased job until the round has settled. */
async function settleRound(roundId: string): Promise<void> {
  const runner = client(await server.machineToken(`cli-runner-${roundId.slice(-6)}`));
  for (
    let i = 0;
    i < 10 && (await admin.rounds.get({ round_id: roundId })).status !== "completed";
    i++
  ) {
    const { jobs } = await runner.runner.lease({
      body: { runner_id: "cli", capacity: 8, runtimes: ["process"], isolation: "sandbox" },
    });
    for (const job of jobs) {
      await runner.runner.uploadArtifact({
        job_id: job.job_id,
        lease_token: job.lease_token,
        artifact_name: "replay",
        body: new TextEncoder().encode('{"turn":1}\n'),
      });
      await runner.runner.uploadArtifact({
        job_id: job.job_id,
        lease_token: job.lease_token,
        artifact_name: "policy-log-0",
        body: new TextEncoder().encode("seat 0 thinking\n"),
      });
      await runner.runner.uploadArtifact({
        job_id: job.job_id,
        lease_token: job.lease_token,
        artifact_name: "policy-artifact-0",
        body: new TextEncoder().encode("seat 0 notes"),
      });
      await runner.runner.complete({
        job_id: job.job_id,
        lease_token: job.lease_token,
        body: {
          runner_id: "cli",
          results: {
            scores: job.players.map((p) => 10 - p.position),
            winner_slot: 0,
            turns: 40,
            seed: 1,
          },
        },
      });
    }
  }
}

beforeAll(async () => {
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  home = newConfigHome();
  user = await server.newUser();
  admin = client(server.adminToken);
  sdk = client(user.token);
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe("auth", () => {
  it("signs in with a token from standard input, reports status, prints the token, signs out", async () => {
    const own = newConfigHome();
    const env = { GAUNTLET_TOKEN: undefined, XDG_CONFIG_HOME: own };
    try {
      const login = await cli(["auth", "login", "--with-token", "--json"], {
        env,
        input: `${user.token}\n`,
      });
      expect(json(login)).toEqual(await sdk.whoami());
      const credentials = JSON.parse(
        readFileSync(join(own, "gauntlet", "credentials.json"), "utf8"),
      ) as { servers: Record<string, { token: string }> };
      expect(Object.values(credentials.servers).map((s) => s.token)).toEqual([user.token]);

      expect(json(await cli(["auth", "status", "--json"], { env }))).toEqual(await sdk.whoami());
      const status = await cli(["auth", "status"], { env });
      expect(status.stdout).toContain(user.email);
      expect(status.stdout).toMatch(/budget/);
      expect((await cli(["auth", "token"], { env })).stdout.trim()).toBe(user.token);

      expect((await cli(["auth", "logout"], { env })).code).toBe(0);
      const after = await cli(["auth", "status"], { env });
      expect(after.code).toBe(4);
      expect(after.stderr).toMatch(/not signed in.*gauntlet auth login/);
      expect((await cli(["auth", "token"], { env })).code).toBe(4);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("creates, lists and uses player identities", async () => {
    const created = json(await cli(["auth", "player", "create", "cli-player", "--json"])) as {
      id: string;
      name: string;
    };
    expect(created.name).toBe("cli-player");
    expect(json(await cli(["auth", "player", "list", "--json"]))).toEqual(await sdk.players.list());
    expect((await cli(["auth", "player", "list"])).stdout).toMatch(/NAME[\s\S]*cli-player/);

    const own = newConfigHome();
    try {
      const used = json(
        await cli(["auth", "player", "use", created.id, "--json"], {
          env: { XDG_CONFIG_HOME: own },
        }),
      ) as { token: string };
      const me = await client(used.token).whoami();
      expect(me.subject_type).toBe("player");
      const saved = JSON.parse(readFileSync(join(own, "gauntlet", "credentials.json"), "utf8")) as {
        servers: Record<string, { token: string }>;
      };
      expect(Object.values(saved.servers).map((s) => s.token)).toEqual([used.token]);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

describe("leagues, coworlds, policies and league play", () => {
  let leagueId = "";
  let divisionId = "";
  let coworldId = "";
  let gameId = "";

  it("uploads, lists, shows and certifies a coworld, and manages its secrets", async () => {
    const uploaded = json(
      await cli(["coworld", "upload", gridrush, "--json"], { token: server.adminToken }),
    ) as { id: string; name: string; game_id: string };
    coworldId = uploaded.id;
    gameId = uploaded.game_id;
    expect(uploaded).toEqual(await admin.coworlds.get({ coworld_id: uploaded.id }));
    expect(json(await cli(["coworld", "list", "--json"]))).toEqual(await sdk.coworlds.list());
    expect(json(await cli(["coworld", "show", coworldId, "--json"]))).toEqual(
      await sdk.coworlds.get({ coworld_id: coworldId }),
    );

    const put = json(
      await cli(["coworld", "secret", "put", uploaded.name, "API_KEY", "--json"], {
        token: server.adminToken,
        input: "s3cr3t",
      }),
    ) as { size_bytes: number };
    expect(put.size_bytes).toBe(6);
    expect(
      json(
        await cli(["coworld", "secret", "list", uploaded.name, "--json"], {
          token: server.adminToken,
        }),
      ),
    ).toEqual(await admin.coworldSecrets.list({ coworld_name: uploaded.name }));
    expect(
      (
        await cli(["coworld", "secret", "delete", uploaded.name, "API_KEY"], {
          token: server.adminToken,
        })
      ).code,
    ).toBe(0);
    expect(await admin.coworldSecrets.list({ coworld_name: uploaded.name })).toEqual([]);

    // certify --wait waits while this test plays the runner.
    const certifying = cli(["coworld", "certify", coworldId, "--wait", "--json"], {
      token: server.adminToken,
    });
    const runner = client(await server.machineToken("cli-certifier"));
    let leased = 0;
    // Until the certification's job shows up, however busy the machine (the test's timeout is the limit).
    while (leased === 0) {
      const { jobs } = await runner.runner.lease({
        body: { runner_id: "cert", capacity: 1, runtimes: ["process"], isolation: "sandbox" },
      });
      for (const job of jobs) {
        leased += 1;
        await runner.runner.complete({
          job_id: job.job_id,
          lease_token: job.lease_token,
          body: {
            runner_id: "cert",
            results: { scores: job.players.map(() => 1), winner_slot: 0, turns: 3, seed: 1 },
          },
        });
      }
      if (leased === 0) await new Promise((r) => setTimeout(r, 250));
    }
    const cert = json(await certifying) as { state: string };
    expect(cert.state).toBe("certified");
    expect(cert).toEqual(await admin.coworlds.getCertification({ coworld_id: coworldId }));
  });

  it("creates, lists, shows, updates, locks and pauses a league; lists its divisions", async () => {
    const created = json(
      await cli(
        [
          "league",
          "create",
          "--name",
          "CLI League",
          "--game",
          gameId,
          "--division",
          "Top",
          "--public",
          "--json",
        ],
        { token: server.adminToken },
      ),
    ) as { id: string };
    leagueId = created.id;
    expect(created).toEqual(await admin.leagues.get({ league_id: leagueId }));
    expect(json(await cli(["league", "list", "--json"]))).toEqual(await sdk.leagues.list());
    expect((await cli(["league", "list"])).stdout).toMatch(/^ID\s+NAME\s+GAME[\s\S]*CLI League/);
    expect(json(await cli(["league", "show", leagueId, "--json"]))).toEqual(
      await sdk.leagues.get({ league_id: leagueId }),
    );
    const updated = json(
      await cli(
        ["league", "update", leagueId, "--description", "played from a terminal", "--json"],
        { token: server.adminToken },
      ),
    ) as { description: string };
    expect(updated.description).toBe("played from a terminal");
    expect(updated).toEqual(await admin.leagues.get({ league_id: leagueId }));

    const locks = json(
      await cli(["league", "lock", leagueId, "--json"], { token: server.adminToken }),
    ) as { submissions_locked: boolean };
    expect(locks.submissions_locked).toBe(true);
    expect(locks).toEqual(await admin.leagues.getLocks({ league_id: leagueId }));
    expect(
      (
        json(
          await cli(["league", "lock", leagueId, "--unlock", "--json"], {
            token: server.adminToken,
          }),
        ) as { submissions_locked: boolean }
      ).submissions_locked,
    ).toBe(false);

    const paused = json(
      await cli(["league", "pause", leagueId, "--json"], { token: server.adminToken }),
    ) as { rounds_paused_at: string | null };
    expect(paused.rounds_paused_at).not.toBeNull();
    expect(
      (
        json(
          await cli(["league", "pause", leagueId, "--resume", "--json"], {
            token: server.adminToken,
          }),
        ) as { rounds_paused_at: string | null }
      ).rounds_paused_at,
    ).toBeNull();

    const divisions = json(await cli(["division", "list", "--league", leagueId, "--json"])) as {
      id: string;
      name: string;
    }[];
    expect(divisions).toEqual(await sdk.divisions.list({ league_id: leagueId }));
    divisionId = divisions[0]?.id ?? "";
    expect(divisions.map((d) => d.name)).toEqual(["Top"]);
  });

  it("uploads policies, submits them, plays a round and shows standings, rounds, events and episodes", async () => {
    const players = [];
    for (const name of ["greedy", "wanderer"]) {
      const player = json(await cli(["auth", "player", "create", `cli-${name}`, "--json"])) as {
        id: string;
      };
      players.push(player);
      const version = json(
        await cli([
          "policy",
          "upload",
          join(gridrush, "players"),
          "--name",
          `cli-${name}`,
          "--run",
          `node ${name}.ts`,
          "--player",
          player.id,
          "--json",
        ]),
      ) as { id: string; version: number };
      expect(version.version).toBe(1);
      const submission = json(
        await cli([
          "submit",
          `cli-${name}:v1`,
          "--league",
          leagueId,
          "--player",
          player.id,
          "--json",
        ]),
      ) as { id: string; status: string };
      expect(submission.status).toBe("placed");
    }
    expect(json(await cli(["policy", "list", "--mine", "--json"]))).toEqual(
      await sdk.policyVersions.list({ mine: true, limit: 50 }),
    );
    expect(json(await cli(["policy", "versions", "cli-greedy", "--json"]))).toEqual(
      await sdk.policyVersions.list({ name: "cli-greedy" }),
    );
    expect(json(await cli(["submissions", "--league", leagueId, "--json"]))).toEqual(
      await sdk.leagueSubmissions.list({ league_id: leagueId, mine: true }),
    );
    expect(json(await cli(["memberships", "--league", leagueId, "--json"]))).toEqual(
      await sdk.memberships.list({ league_id: leagueId, mine: true }),
    );

    const triggered = json(
      await cli(["league", "trigger-round", leagueId, "--json"], { token: server.adminToken }),
    ) as { rounds: { id: string }[] };
    const roundId = triggered.rounds[0]?.id ?? "";
    expect(roundId).toMatch(/^round_/);
    await settleRound(roundId);

    const board = json(await cli(["leaderboard", divisionId, "--json"])) as {
      player_name: string;
    }[];
    expect(board).toEqual(
      await sdk.divisions.leaderboard({ division_id: divisionId, include_recent_rounds: true }),
    );
    expect(board.map((r) => r.player_name).sort()).toEqual(["cli-greedy", "cli-wanderer"]);
    const table = (await cli(["leaderboard", divisionId])).stdout;
    expect(table).toMatch(
      /^RANK\s+COULD RANK\s+PLAYER\s+SCORE\s+95% INTERVAL\s+P>NEXT\s+FORM\s+ROUNDS\s+EPISODES\s+RECENT RANKS/,
    );
    expect(table).toContain("cli-greedy");

    expect(json(await cli(["round", "list", "--division", divisionId, "--json"]))).toEqual(
      await sdk.rounds.list({ division_id: divisionId, limit: 20 }),
    );
    expect(json(await cli(["round", "show", roundId, "--json"]))).toEqual(
      await sdk.rounds.get({ round_id: roundId }),
    );
    expect(json(await cli(["events", "--league", leagueId, "--limit", "5", "--json"]))).toEqual(
      await sdk.competitionEvents.list({ league_id: leagueId, limit: 5 }),
    );

    const episodes = json(await cli(["episode", "list", "--round", roundId, "--json"])) as {
      entries: { id: string }[];
    };
    expect(episodes).toEqual(await sdk.episodeRequests.list({ round_id: roundId, limit: 20 }));
    const episodeId = episodes.entries[0]?.id ?? "";
    expect(json(await cli(["episode", "show", episodeId, "--json"]))).toEqual(
      await sdk.episodeRequests.get({ episode_request_id: episodeId }),
    );
    expect((await cli(["episode", "replay", episodeId])).stdout).toBe('{"turn":1}\n');
    expect((await cli(["episode", "logs", episodeId, "--seat", "0"])).stdout).toBe(
      "seat 0 thinking\n",
    );
    expect((await cli(["episode", "artifact", episodeId, "--seat", "0"])).stdout).toBe(
      "seat 0 notes",
    );
    const none = await cli(["episode", "artifact", episodeId, "--seat", "1"]);
    expect([none.code, none.stderr.trim()]).toEqual([
      3,
      `gauntlet: seat 1 of ${episodeId} uploaded no artifact`,
    ]);
  });

  it("opens, claims, leaves, starts and cancels lobbies, and prints a play session's join address", async () => {
    const mine = await sdk.policyVersions.list({ mine: true, limit: 50 });
    const greedy = mine.find((v) => v.policy.name === "cli-greedy");
    const wanderer = mine.find((v) => v.policy.name === "cli-wanderer");
    const created = json(
      await cli([
        "lobby",
        "create",
        leagueId,
        "--seat",
        "human_open",
        "--seat",
        `human:${user.id}`,
        "--json",
      ]),
    ) as { id: string };
    expect(json(await cli(["lobby", "get", created.id, "--json"]))).toEqual(
      await sdk.lobbies.get({ lobby_id: created.id }),
    );
    json(
      await cli([
        "lobby",
        "claim",
        created.id,
        "0",
        "--policy-version",
        greedy?.id ?? "",
        "--json",
      ]),
    );
    const left = json(await cli(["lobby", "leave", created.id, "--json"])) as {
      seats: { claimed_at: string | null }[];
    };
    expect(left.seats.map((s) => s.claimed_at)).toEqual([null, null]);
    await cli(["lobby", "claim", created.id, "0", "--policy-version", greedy?.id ?? ""]);
    await cli(["lobby", "claim", created.id, "1", "--policy-version", wanderer?.id ?? ""]);
    const started = json(await cli(["lobby", "start", created.id, "--json"])) as {
      status: string;
      experience_request_id: string;
    };
    expect([started.status, started.experience_request_id.slice(0, 5)]).toEqual([
      "running",
      "xreq_",
    ]);
    const again = await cli(["lobby", "cancel", created.id]);
    expect([again.code, again.stderr.trim().split("\n")]).toEqual([
      1,
      [expect.stringContaining("open")],
    ]);
    const bad = await cli(["lobby", "create", leagueId, "--seat", "robot"]);
    expect([bad.code, bad.stderr.trim().split("\n")]).toEqual([
      2,
      [expect.stringContaining("--seat")],
    ]);

    await admin.playModules.upload({
      coworld_id: coworldId,
      kind: "player_client",
      body: new Uint8Array(await packDirectory(join(gridrush, "play", "client"))),
    });
    const played = await cli([
      "play",
      coworldId,
      "--opponent",
      "cli-greedy:v1",
      "--config",
      '{"turn_timeout_ms":10000}',
    ]);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout.trim()).toMatch(
      /\/v2\/play-modules\/pmod_[0-9a-f-]+\/files\/index\.html#ws=ws%3A%2F%2F.+%2Fsocket%3Ftoken%3D/,
    );
  });

  it("follows live events until interrupted", async () => {
    const { spawn } = await import("node:child_process");
    const { MAIN, cleanEnv } = await import("./run-cli.ts");
    const child = spawn(
      process.execPath,
      [MAIN, "events", "--league", leagueId, "--follow", "--json"],
      {
        env: cleanEnv({
          GAUNTLET_SERVER: server.url,
          GAUNTLET_TOKEN: user.token,
          XDG_CONFIG_HOME: home,
        }),
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    // The feed is one pretty JSON array (it ends with "]" alone on a line); live events follow, one a line.
    const liveLines = () => {
      const end = out.startsWith("[]\n") ? 3 : out.indexOf("\n]\n") + 3;
      return end < 3 ? [] : out.slice(end).split("\n").filter(Boolean);
    };
    while (!out.includes("\n]\n") && !out.startsWith("[]\n"))
      await new Promise((r) => setTimeout(r, 100));
    // Cause live events on the league's topic: a round starts (its episodes follow). The feed is
    // printed before the live subscription is open, so a round started in between is not seen:
    // start another every few seconds until a live event arrives (a 409 while one runs is fine).
    for (let waited = 0; liveLines().length === 0; waited += 100) {
      if (waited % 5_000 === 0)
        await admin.leagues
          .triggerRound({ league_id: leagueId, body: {} })
          .catch((error: unknown) => {
            if (!(error instanceof ConflictError)) throw error;
          });
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const live = liveLines().map((l) => JSON.parse(l) as { topic: string });
    expect(live.length).toBeGreaterThan(0);
    expect(live[0]?.topic).toBe(`league:${leagueId}`);
  });
});

describe("reporters", () => {
  it("registers, opens a run, posts an output with the key, lists it, rotates the key; bad input is one line and exit 2", async () => {
    const created = json(
      await cli(["reporter", "register", "CLI Recap", "--type", "round-summary", "--json"]),
    ) as { id: string; reporter_key: string };
    expect(created.reporter_key).toMatch(/^rptk_/);
    expect(json(await cli(["reporter", "get", created.id, "--json"]))).toEqual(
      await sdk.reporters.get({ reporter_id: created.id }),
    );
    const listed = json(await cli(["reporter", "list", "-q", "cli recap", "--json"])) as {
      id: string;
    }[];
    expect(listed.map((r) => r.id)).toContain(created.id);
    const run = json(
      await cli(["reporter", "runs", "open", created.id, "--text", "week 1", "--json"]),
    ) as { id: string };
    expect(run.id).toMatch(/^rrun_/);
    const posted = json(
      await cli(
        [
          "reporter",
          "output",
          "post",
          "-",
          "--run",
          run.id,
          "--name",
          "recap.html",
          "--type",
          "html",
          "--json",
        ],
        { input: "<h1>Week 1</h1>", env: { GAUNTLET_REPORTER_KEY: created.reporter_key } },
      ),
    ) as { id: string; size_bytes: number };
    expect(posted.size_bytes).toBe(15);
    expect(json(await cli(["reporter", "output", "list", "--run", run.id, "--json"]))).toEqual(
      await sdk.reporterRuns.output({ reporter_run_id: run.id }),
    );
    const table = await cli(["reporter", "output", "list", "--reporter", created.id]);
    expect(table.stdout).toContain("recap.html");

    const rotated = json(await cli(["reporter", "rotate-key", created.id, "--json"])) as {
      reporter_key: string;
    };
    expect(rotated.reporter_key).not.toBe(created.reporter_key);
    const stale = await cli(
      [
        "reporter",
        "output",
        "post",
        "-",
        "--run",
        run.id,
        "--name",
        "late.html",
        "--key",
        created.reporter_key,
      ],
      { input: "late" },
    );
    expect(stale.code).toBe(4);
    expect(stale.stderr.trim().split("\n")).toHaveLength(1);

    for (const args of [
      ["reporter", "runs", "open", created.id],
      ["reporter", "output", "list"],
      ["reporter", "get", "rptr_nope"],
      ["reporter", "list", "--mode", "sometimes"],
    ]) {
      const bad = await cli(args);
      expect(bad.code, args.join(" ")).toBe(2);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("the rest", () => {
  it("registers a container image as a policy version", async () => {
    const created = json(
      await cli([
        "policy",
        "upload",
        "--image",
        "ghcr.io/me/bot:1",
        "--name",
        "cli-image-bot",
        "--json",
      ]),
    ) as { id: string; version: number };
    expect(created.version).toBe(1);
    expect(
      (await sdk.policyVersions.get({ policy_version_id: created.id })).container_image_id,
    ).toMatch(/^img_/);
  });

  it("watch loads the terminal UI, which says in one line that it needs a terminal, and exits 2", async () => {
    const result = await cli(["watch"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/gauntlet watch: needs an interactive terminal/);
  });

  it("prints completion scripts for bash, zsh and fish", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gauntlet-completion-"));
    try {
      for (const shell of ["bash", "zsh", "fish"]) {
        const result = await cli(["completion", shell]);
        expect(result.code).toBe(0);
        expect(result.stdout).toContain("leaderboard");
        expect(result.stdout).toContain("trigger-round");
      }
      // The bash script completes: `gauntlet lea<TAB>` → league, leaderboard.
      const { runCommand } = await import("./run-cli.ts");
      const script = (await cli(["completion", "bash"])).stdout;
      const probe = `${script}\nCOMP_WORDS=(gauntlet lea); COMP_CWORD=1; _gauntlet; echo "\${COMPREPLY[@]}"\nCOMP_WORDS=(gauntlet league tr); COMP_CWORD=2; _gauntlet; echo "\${COMPREPLY[@]}"`;
      const bash = await runCommand("bash", ["-c", probe]);
      expect(bash.stdout.split("\n").slice(0, 2)).toEqual(["league leaderboard", "trigger-round"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

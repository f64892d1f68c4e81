// The whole loop over real HTTP: the server (SQLite, or PostgreSQL when DATABASE_URL is set)
// with the API, and runners as separate processes that lease, run, upload and report.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Coworld } from "@gauntlet/core";
import {
  isConflictError,
  isPermissionDeniedError,
  type FetchLike,
  type Gauntlet,
} from "@gauntlet/sdk";
import { startTestServer, type TestServer } from "@gauntlet/server/testing";

import { isRunning } from "../testing/episodes.ts";
import {
  apiClient,
  certify,
  gridrushDir,
  killRunners,
  manifestOf,
  secretEchoDir,
  spawnRunner,
  uploadCoworld,
  waitFor,
} from "./support.ts";

let server: TestServer;
let admin: Gauntlet;
let token: string;
let gridrush: Coworld;

beforeAll(async () => {
  server = await startTestServer();
  admin = apiClient(server.url, server.adminToken);
  token = await server.machineToken("e2e-runner");
  gridrush = await uploadCoworld(admin, gridrushDir);
});

afterAll(async () => {
  killRunners();
  await server.close();
});

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");
const workDir = (name: string) => join(server.testStore.dataDir, `runner-${name}`);

async function jobRow(jobId: string) {
  return server.server.store.db
    .selectFrom("jobs")
    .selectAll()
    .where("id", "=", jobId)
    .executeTakeFirstOrThrow();
}

describe("episodes on runners", () => {
  it("certifies the example coworld with a runner process, and serves the episode's results, replay and logs", async () => {
    const runner = spawnRunner(server.url, token, ["--work-dir", workDir("basic")]);
    const verdict = await certify(admin, gridrush.id);
    expect(verdict).toMatchObject({ state: "certified", error: null });

    const episodeId = verdict.episode_request_id ?? "";
    const episode = await admin.episodeRequests.get({ episode_request_id: episodeId });
    expect(episode).toMatchObject({
      status: "completed",
      coworld_id: gridrush.id,
      error_type: null,
    });
    expect(episode.scores).toHaveLength(3);
    const results = JSON.parse(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: episodeId,
          artifact_type: "results",
        }),
      ),
    ) as Record<string, unknown>;
    expect(results).toMatchObject({ turns: 30, seed: 7 });
    expect(episode.scores.map((s) => s.score)).toEqual(results.scores);
    expect(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: episodeId,
          artifact_type: "replay",
        }),
      ),
    ).toContain('"type":"header"');
    expect(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: episodeId,
          artifact_type: "logs",
        }),
      ),
    ).toContain("finished: scores");
    const seats = await admin.episodeRequests.listPolicyArtifacts({
      episode_request_id: episodeId,
    });
    expect(seats.map((s) => s.has_log)).toEqual([true, true, true]);
    const log = await admin.episodeRequests.getPolicyLog({
      episode_request_id: episodeId,
      policy_version_id: "bundled",
      idx: 2,
    });
    expect(log).toContain("episode finished");
    expect((await admin.episodeRequests.getStats({ episode_request_id: episodeId })).steps).toBe(
      30,
    );

    runner.child.kill("SIGTERM");
    expect(await runner.exited).toEqual({ code: 0, signal: null });
  });

  it("certifies an ordinary user's coworld in the sandbox, and the episode says where it ran", async () => {
    const user = await server.newUser({ admin: false });
    const owner = apiClient(server.url, user.token);
    const manifest = manifestOf(gridrushDir);
    const coworld = await uploadCoworld(owner, gridrushDir, {
      ...manifest,
      game: { ...manifest.game, name: `user-grid-${randomUUID().slice(0, 8)}` },
    });
    // No --runtime: the default, the sandbox. The job asks for an argv ("process") runtime and
    // runs sandboxed all the same; the game's and players' pids are those of their sandboxes.
    const runner = spawnRunner(server.url, token, ["--work-dir", workDir("user-certify")]);
    const verdict = await certify(owner, coworld.id);
    expect(verdict, runner.output()).toMatchObject({ state: "certified", error: null });
    const episode = await owner.episodeRequests.get({
      episode_request_id: verdict.episode_request_id ?? "",
    });
    expect(episode).toMatchObject({ status: "completed", isolation: "sandbox" });
    expect(runner.output()).toMatch(/runner started .*runtime=sandbox/);
    expect(runner.output()).toMatch(/trusted_code=false/);
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toEqual({ code: 0, signal: null });
  });

  it("runs no job unsandboxed on a runner not told that all code is trusted", async () => {
    const refused = spawnRunner(server.url, token, [
      "--work-dir",
      workDir("untrusted-process"),
      "--runtime",
      "process",
    ]);
    expect((await refused.exited).code).not.toBe(0);
    expect(refused.output()).toMatch(/--trusted-code/);
    expect(refused.output()).not.toMatch(/job leased/);
  });

  it("runs a killed runner's job again once its lease expires, and completes it exactly once", async () => {
    const dir = workDir("shared");
    const first = spawnRunner(server.url, token, ["--work-dir", dir, "--runner-id", "first"]);
    await first.line(/runner started/);
    await admin.coworlds.certify({ coworld_id: gridrush.id });
    const jobId = (await first.line(/job leased job=(\S+) attempt=1/))[1] ?? "";
    await first.line(/game healthy/);
    first.child.kill("SIGKILL");
    await first.exited;
    expect(await jobRow(jobId)).toMatchObject({ status: "leased", attempts: 1 });
    const leftBehind = [...first.output().matchAll(/runnable=\S+ pid=(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(leftBehind.length).toBeGreaterThan(0);
    // The lease runs out: set its end in the past rather than wait for it (a short lease could
    // also run out under a healthy runner on a busy machine).
    await server.server.store.db
      .updateTable("jobs")
      .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", jobId)
      .execute();

    // The next runner on the same work directory ends what the dead one left running.
    const second = spawnRunner(server.url, token, ["--work-dir", dir, "--runner-id", "second"]);
    await second.line(/runner started/);
    await waitFor(
      () => `the dead runner's processes ${leftBehind.filter(isRunning).join(", ")} to end`,
      () => leftBehind.filter(isRunning).length === 0,
    );
    await second.line(new RegExp(`job completed job=${jobId} attempt=2`));

    const verdict = await waitFor("certified", async () => {
      const state = await admin.coworlds.getCertification({ coworld_id: gridrush.id });
      return state.state === "certified" ? state : null;
    });
    expect(await jobRow(jobId)).toMatchObject({ status: "completed", attempts: 2 });
    expect(first.output()).not.toContain("job completed");
    expect(second.output().match(new RegExp(`job completed job=${jobId}`, "g"))).toHaveLength(1);

    // A late report with the runner's token but not the job's lease (what an episode that found
    // the token could send) is refused and changes nothing.
    const episodeId = verdict.episode_request_id ?? "";
    const before = await admin.episodeRequests.get({ episode_request_id: episodeId });
    const machine = apiClient(server.url, token);
    const again = await machine.runner
      .complete({
        job_id: jobId,
        lease_token: "guessed",
        body: {
          runner_id: "second",
          results: { scores: [9, 9, 9], turns: 30, seed: 7, winner_slot: 0 },
        },
      })
      .then(
        () => "accepted",
        (error: unknown) =>
          isPermissionDeniedError(error) || isConflictError(error) ? "refused" : String(error),
      );
    expect(again).toBe("refused");
    const after = await admin.episodeRequests.get({ episode_request_id: episodeId });
    expect(after.scores).toEqual(before.scores);
    expect(after.updated_at).toBe(before.updated_at);

    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  });

  it("on SIGTERM finishes the running episode; with no grace left it gives the job back for another runner", async () => {
    const patient = spawnRunner(server.url, token, ["--work-dir", workDir("patient")]);
    await admin.coworlds.certify({ coworld_id: gridrush.id });
    await patient.line(/game healthy/);
    patient.child.kill("SIGTERM");
    expect(await patient.exited).toEqual({ code: 0, signal: null });
    expect(patient.output()).toMatch(/job completed job=\S+ attempt=1[\s\S]*runner stopped/);
    expect((await admin.coworlds.getCertification({ coworld_id: gridrush.id })).state).toBe(
      "certified",
    );

    const hasty = spawnRunner(server.url, token, [
      "--work-dir",
      workDir("hasty"),
      "--grace-seconds",
      "0",
    ]);
    await admin.coworlds.certify({ coworld_id: gridrush.id });
    const jobId = (await hasty.line(/job leased job=(\S+)/))[1] ?? "";
    await hasty.line(/game healthy/);
    hasty.child.kill("SIGTERM");
    expect(await hasty.exited).toEqual({ code: 0, signal: null });
    expect(hasty.output()).toContain(`job returned unrun (shutdown) job=${jobId}`);
    expect(await jobRow(jobId)).toMatchObject({ status: "queued", attempts: 0 });
    const pids = [...hasty.output().matchAll(/runnable=\S+ pid=(\d+)/g)].map((m) => Number(m[1]));
    expect(pids.filter(isRunning)).toEqual([]);

    const next = spawnRunner(server.url, token, ["--work-dir", workDir("next")]);
    await next.line(new RegExp(`job completed job=${jobId} attempt=1`));
    await waitFor(
      "certified",
      async () =>
        (await admin.coworlds.getCertification({ coworld_id: gridrush.id })).state === "certified",
    );
    next.child.kill("SIGTERM");
    await next.exited;
  });

  it("fails the certification of a game that never becomes healthy, and of one whose player crashes, naming the slot", async () => {
    const manifest = manifestOf(gridrushDir);
    const broken = await uploadCoworld(admin, gridrushDir, {
      ...manifest,
      game: {
        ...manifest.game,
        name: "gridrush-broken",
        runnable: {
          type: "game",
          run: ["node", "-e", "console.error('no config for me'); process.exit(7)"],
        },
      },
    });
    const crasher = {
      type: "player",
      id: "crasher",
      name: "Crasher",
      description: "Dies at turn 3.",
      run: ["node", "test-fixtures/crasher.ts"],
    };
    const crashing = await uploadCoworld(admin, gridrushDir, {
      ...manifest,
      game: { ...manifest.game, name: "gridrush-crashing" },
      player: [...manifest.player, crasher],
      certification: {
        ...manifest.certification,
        players: [{ player_id: "greedy" }, { player_id: "crasher" }, { player_id: "random" }],
      },
    });
    const runner = spawnRunner(server.url, token, ["--work-dir", workDir("faults")]);

    const unhealthy = await certify(admin, broken.id);
    expect(unhealthy.state).toBe("failed");
    expect(unhealthy.error).toContain("exited with code 7");
    const unhealthyId = unhealthy.episode_request_id ?? "";
    expect(await admin.episodeRequests.get({ episode_request_id: unhealthyId })).toMatchObject({
      status: "failed",
      error_type: "game_unhealthy",
      failed_policy_index: null,
    });
    const info = JSON.parse(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: unhealthyId,
          artifact_type: "error-info",
        }),
      ),
    ) as Record<string, unknown>;
    expect(info).toMatchObject({ error_type: "game_unhealthy", failed_policy_index: null });
    expect(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: unhealthyId,
          artifact_type: "logs",
        }),
      ),
    ).toContain("no config for me");

    const crashed = await certify(admin, crashing.id);
    expect(crashed.state).toBe("failed");
    const crashedId = crashed.episode_request_id ?? "";
    expect(await admin.episodeRequests.get({ episode_request_id: crashedId })).toMatchObject({
      status: "failed",
      error_type: "player_failure",
      failed_policy_index: 1,
      failed_agent_index: 1,
    });
    const crashInfo = JSON.parse(
      text(
        await admin.episodeRequests.getArtifact({
          episode_request_id: crashedId,
          artifact_type: "error-info",
        }),
      ),
    ) as Record<string, unknown>;
    expect(crashInfo).toMatchObject({ error_type: "player_failure", failed_policy_index: 1 });
    expect(
      await admin.episodeRequests.getPolicyLog({
        episode_request_id: crashedId,
        policy_version_id: "bundled",
        idx: 1,
      }),
    ).toContain("crashing at turn 3");

    // Neither fault touched the runner: it is still there, and reported both as episode failures.
    expect(runner.child.exitCode).toBeNull();
    expect(runner.output()).not.toContain("job failed on the runner");
    runner.child.kill("SIGTERM");
    expect((await runner.exited).code).toBe(0);
  });

  it("gives a game secret to the game's environment only: no response, runner output or artifact shows it", async () => {
    const bodies: string[] = [];
    const recording: FetchLike = async (input, init) => {
      const response = await fetch(input, init);
      bodies.push(await response.clone().text());
      return response;
    };
    const owner = apiClient(server.url, server.adminToken, recording);
    const echo = await uploadCoworld(owner, secretEchoDir);
    const secret = `echo-${randomUUID()}`;
    const record = await owner.coworldSecrets.put({
      coworld_name: "secret-echo",
      secret_name: "ECHO_SECRET",
      body: Buffer.from(secret),
    });
    expect(record).toMatchObject({ secret_name: "ECHO_SECRET", size_bytes: secret.length });
    await owner.coworldSecrets.list({ coworld_name: "secret-echo" });
    const runner = spawnRunner(server.url, token, ["--work-dir", workDir("secrets")]);

    const verdict = await certify(owner, echo.id);
    expect(verdict.state).toBe("certified");
    const episodeId = verdict.episode_request_id ?? "";
    const artifact = async (type: "logs" | "replay" | "results") =>
      text(
        await owner.episodeRequests.getArtifact({
          episode_request_id: episodeId,
          artifact_type: type,
        }),
      );
    const results = JSON.parse(await artifact("results")) as { secret_sha256: string | null };
    expect(results.secret_sha256).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(await artifact("logs")).toContain("ECHO_SECRET is present");
    await artifact("replay");
    for (const idx of [0, 1])
      expect(
        await owner.episodeRequests.getPolicyLog({
          episode_request_id: episodeId,
          policy_version_id: "bundled",
          idx,
        }),
      ).toContain("ECHO_SECRET is absent");
    await owner.episodeRequests.get({ episode_request_id: episodeId });
    await owner.episodeRequests.getStats({ episode_request_id: episodeId });

    // A careless game that prints its secret: the log the runner uploads has it blacked out.
    const manifest = manifestOf(secretEchoDir);
    const careless = await uploadCoworld(owner, secretEchoDir, {
      ...manifest,
      game: { ...manifest.game, version: "0.2.0" },
      certification: { ...manifest.certification, game_config: { print_secret: true } },
    });
    const carelessVerdict = await certify(owner, careless.id);
    expect(carelessVerdict.state).toBe("certified");
    const carelessLog = text(
      await owner.episodeRequests.getArtifact({
        episode_request_id: carelessVerdict.episode_request_id ?? "",
        artifact_type: "logs",
      }),
    );
    expect(carelessLog).toContain("careless game: ECHO_SECRET=[redacted]");

    runner.child.kill("SIGTERM");
    await runner.exited;
    expect(bodies.length).toBeGreaterThan(10);
    expect(bodies.filter((body) => body.includes(secret))).toEqual([]);
    expect(runner.output()).not.toContain(secret);
    const blobs = join(server.testStore.dataDir, "blobs");
    const stored = readdirSync(blobs, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(
      stored.filter((entry) => readFileSync(join(entry.parentPath, entry.name)).includes(secret)),
    ).toEqual([]);
  });
});

describe("player artifacts", () => {
  it("stores what a player uploads to COWORLD_PLAYER_ARTIFACT_UPLOAD_URL; an upload over the limit is refused and the episode still completes", async () => {
    const owner = apiClient(server.url, server.adminToken);
    const manifest = manifestOf(secretEchoDir) as {
      game: Record<string, unknown>;
      player: Record<string, unknown>[];
      certification: Record<string, unknown>;
    };
    const quiet = manifest.player[0] ?? {};
    const notes = await uploadCoworld(owner, secretEchoDir, {
      ...manifest,
      game: { ...manifest.game, version: "0.3.0" },
      player: [
        ...manifest.player,
        { ...quiet, id: "notes", name: "Notes", env: { ARTIFACT_BYTES: "2048" } },
        { ...quiet, id: "hoarder", name: "Hoarder", env: { ARTIFACT_BYTES: "100000" } },
      ],
      certification: {
        ...manifest.certification,
        players: [{ player_id: "notes" }, { player_id: "hoarder" }],
      },
    });
    const runner = spawnRunner(server.url, token, [
      "--work-dir",
      workDir("artifacts"),
      "--artifact-max-bytes",
      "4096",
    ]);
    const verdict = await certify(owner, notes.id);
    expect(verdict.state).toBe("certified");
    const episodeId = verdict.episode_request_id ?? "";
    expect((await owner.episodeRequests.get({ episode_request_id: episodeId })).status).toBe(
      "completed",
    );
    const seats = await owner.episodeRequests.listPolicyArtifacts({
      episode_request_id: episodeId,
    });
    expect(seats.map((s) => s.has_artifact)).toEqual([true, false]);
    const stored = await owner.episodeRequests.getPolicyArtifact({
      episode_request_id: episodeId,
      policy_version_id: "bundled",
      idx: 0,
    });
    expect(stored.byteLength).toBe(2048);
    expect([...stored.slice(250, 253)]).toEqual([250, 0, 1]);
    expect(
      await owner.episodeRequests.getPolicyLog({
        episode_request_id: episodeId,
        policy_version_id: "bundled",
        idx: 0,
      }),
    ).toContain("artifact upload of 2048 bytes: 201");
    expect(
      await owner.episodeRequests.getPolicyLog({
        episode_request_id: episodeId,
        policy_version_id: "bundled",
        idx: 1,
      }),
    ).toContain("artifact upload of 100000 bytes: 413");
    await expect(
      owner.episodeRequests.getPolicyArtifact({
        episode_request_id: episodeId,
        policy_version_id: "bundled",
        idx: 1,
      }),
    ).rejects.toMatchObject({ status: 404 });
    runner.child.kill("SIGTERM");
    await runner.exited;
  });
});

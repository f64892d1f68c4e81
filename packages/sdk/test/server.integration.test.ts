// Every contract operation through the SDK against the real server (apps/server, started on
// a free port with a temporary SQLite store), and every error class the server can produce.
// Which operations ran is read from the HTTP traffic itself, so an operation added to the
// contract without a call here fails the last test.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { bestEffort, contract, type OperationId } from "@gauntlet/core";
import {
  packDirectory,
  startTestServer,
  writeEpisodeFile,
  type TestServer,
} from "@gauntlet/server/testing";

import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  InternalServerError,
  isRateLimitError,
  isUnprocessableEntityError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type ClientOptions,
  type FetchLike,
  type LiveEvent,
  type RetryEvent,
} from "../src/index.ts";

const covered = new Set<OperationId>();
const routes = (Object.keys(contract) as OperationId[]).map((id) => {
  const op = contract[id];
  const pattern = new RegExp(
    `^${op.path.replace(/\./g, "\\.").replace(/\{[a-z][a-z0-9_]*\}/g, "[^/]+")}$`,
  );
  // Literal segments win over parameters (`/v2/leagues/game-of-week` over `{league_id}`).
  const literal = op.path.replace(/\{[a-z][a-z0-9_]*\}/g, "").length;
  return { id, method: op.method, pattern, literal };
});

/** A fetch that notes which contract operation each request was. */
function recordingFetch(basePath: string): FetchLike {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname.slice(basePath.length) || "/";
    const match = routes
      .filter((r) => r.method === request.method && r.pattern.test(path))
      .sort((a, b) => b.literal - a.literal)[0];
    const response = await fetch(request);
    if (match && response.status < 500) covered.add(match.id);
    return response;
  };
}

let server: TestServer;
let admin: ReturnType<typeof createClient>;
let user: { id: string; email: string; token: string };
let userClient: ReturnType<typeof createClient>;

function clientFor(token: string | null, extra: ClientOptions = {}) {
  return createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token,
    fetch: recordingFetch(""),
    retries: { maxRetries: 1, backoffBaseMs: 10 },
    // An admin's token acts as an admin only when elevated; other callers' header is ignored.
    elevated: true,
    ...extra,
  });
}

beforeAll(async () => {
  // Rounds here start by trigger-round only: a running scheduler could start the first round
  // on its own the moment both players are placed, and the trigger would then report it skipped.
  server = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  admin = clientFor(server.adminToken);
  user = await server.newUser();
  userClient = clientFor(user.token);
});
afterAll(() => server.close());

describe("service", () => {
  it("describes itself", async () => {
    const openapi = await admin.service.openapi();
    expect(openapi.openapi).toBe("3.1.0");
    expect(await admin.service.docs()).toMatch(/<html/i);
    expect((await admin.service.docsScript()).length).toBeGreaterThan(100);
    expect(await admin.service.rateLimitDocs()).toMatch(/<html/i);
    expect(await admin.service.homePage()).toMatch(/<script src="\/web\.js">/);
    expect(await admin.service.homePageScript()).toContain("/v2/competition-events");
    // The web view's pages are one HTML shell each, whatever the id; its script reads the API.
    for (const page of [
      admin.webView.leaguePage({ id: "lg_x" }),
      admin.webView.divisionPage({ id: "div_x" }),
      admin.webView.roundPage({ id: "round_x" }),
      admin.webView.episodePage({ id: "ereq_x" }),
      admin.webView.playerPage({ id: "player_x" }),
      admin.webView.policyVersionPage({ id: "pv_x" }),
    ])
      expect(await page).toMatch(/<script src="[^"]*\/web\.js">/);
    // Redirected (302) to the home page: no detail names a page.
    expect(await admin.webView.openObservatoryLink({ tab: "leagues" })).toBe("/");
    expect((await admin.service.webScript()).length).toBeGreaterThan(100);
    expect(Array.isArray(await admin.admin.audit({}))).toBe(true);
    expect(await admin.service.health()).toEqual({ status: "ok" });
    expect((await admin.service.ready()).status).toBe("ready");
  });

  it("answers on the data host under its prefix, and 404s the prefix on the alt host", async () => {
    const data = clientFor(server.adminToken, {
      baseUrl: server.dataUrl,
      fetch: recordingFetch(new URL(server.dataUrl).pathname),
    });
    expect((await data.whoami()).is_admin).toBe(true);
    await expect(
      clientFor(server.adminToken, { baseUrl: `${server.url}/observatory` }).whoami(),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("identity", () => {
  it("tells anonymous callers, users and players apart", async () => {
    expect((await clientFor(null).whoami()).subject_type).toBe("anonymous");
    expect((await clientFor("not-a-token").whoami()).subject_type).toBe("anonymous");
    const me = await userClient.whoami();
    expect(me).toMatchObject({ subject_type: "user", user_email: user.email, is_admin: false });
  });

  it("signs in the way the CLI does: sign-in page, form post, code exchange", async () => {
    const callback = "http://127.0.0.1:9/callback";
    const anonymous = clientFor(null);
    expect(await anonymous.auth.authPage({ callback, state: "st" })).toMatch(/<form/i);
    const location = await anonymous.auth.submitAuth({
      body: { email: user.email, password: "correct horse battery", callback, state: "st" },
    });
    const redirect = new URL(location);
    expect(redirect.origin + redirect.pathname).toBe(callback);
    expect(redirect.searchParams.get("state")).toBe("st");
    const code = redirect.searchParams.get("code") ?? "";
    const { token } = await anonymous.auth.exchangeCode({ body: { code } });
    expect((await clientFor(token).whoami()).user_email).toBe(user.email);
    // A code works once.
    await expect(anonymous.auth.exchangeCode({ body: { code } })).rejects.toThrow();
    expect(await anonymous.auth.validate(undefined, { token })).toEqual({ valid: true });
  });

  it("signs in the way the hosted service's older clients do: the token itself in the callback", async () => {
    const callback = "http://127.0.0.1:9/callback";
    const anonymous = clientFor(null);
    expect(await anonymous.auth.loginPage({ callback })).toMatch(/<form/i);
    const location = await anonymous.auth.submitLogin({
      body: { email: user.email, password: "correct horse battery", callback },
    });
    const token = new URL(location).searchParams.get("token") ?? "";
    expect((await clientFor(token).whoami()).user_email).toBe(user.email);
  });

  it("signs in to the web view: its page, the form post (a redirect to /), its session and sign-out", async () => {
    const anonymous = clientFor(null);
    expect(await anonymous.webView.signInPage()).toMatch(/<form/i);
    expect(
      await anonymous.webView.signIn({
        body: { email: user.email, password: "correct horse battery" },
      }),
    ).toBe("/");
    // Without the browser's cookie, nobody is signed in; a bearer token's sign-out revokes nothing.
    expect(await anonymous.webView.session()).toMatchObject({ signed_in: false, csrf: null });
    expect(await userClient.webView.signOut()).toMatchObject({ signed_in: false });
    expect((await userClient.whoami()).user_email).toBe(user.email);
  });

  it("creates, lists and revokes tokens", async () => {
    const created = await userClient.tokens.create({ body: { name: "ci" } });
    expect(created.token.length).toBeGreaterThan(10);
    expect((await userClient.tokens.list()).map((t) => t.id)).toContain(created.id);
    const revoked = await userClient.tokens.revoke({ token_id: created.id });
    expect(revoked.id).toBe(created.id);
    await expect(clientFor(created.token).tokens.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it("creates players, signs in as one, and manages its credentials", async () => {
    const player = await userClient.players.create({ body: { name: "bot" } });
    expect((await userClient.players.list()).map((p) => p.id)).toContain(player.id);
    const login = await userClient.players.login({ player_id: player.id });
    expect((await clientFor(login.token).whoami()).subject_type).toBe("player");
    const credential = await userClient.playerCredentials.create({
      player_id: player.id,
      body: { name: "ci" },
    });
    expect(credential.name).toBe("ci");
    expect(
      (await userClient.playerCredentials.list({ player_id: player.id })).map((c) => c.id),
    ).toEqual([credential.id]);
    const second = await userClient.playerCredentials.create({ player_id: player.id });
    await userClient.playerCredentials.revoke({
      player_id: player.id,
      credential_id: second.id,
    });
    expect(await userClient.playerCredentials.revokeAll({ player_id: player.id })).toEqual({
      revoked: 1,
    });
  });

  it("creates a player credential with no body, which the contract makes optional", async () => {
    const player = await userClient.players.create({ body: { name: "bodyless" } });
    expect((await userClient.playerCredentials.create({ player_id: player.id })).name).toBe(
      "default",
    );
  });
});

describe("games, leagues and divisions", () => {
  it("runs the whole catalogue", async () => {
    const game = await admin.games.create({ body: { name: "Tag" } });
    expect((await admin.games.list()).map((g) => g.id)).toContain(game.id);
    expect((await admin.games.get({ game_id: game.id })).name).toBe("Tag");
    const mod = await admin.mods.create({ body: { game_id: game.id, name: "Fast" } });
    expect((await admin.mods.list({ game_id: game.id })).map((m) => m.id)).toEqual([mod.id]);
    expect((await admin.mods.get({ mod_id: mod.id })).game.id).toBe(game.id);

    const league = await admin.leagues.create({
      body: {
        name: "Ladder",
        game_id: game.id,
        public: true,
        divisions: [{ name: "Top", level: 0 }],
      },
    });
    expect(league.game.id).toBe(game.id);
    expect((await admin.leagues.list({ game_id: game.id })).map((l) => l.id)).toEqual([league.id]);
    expect((await userClient.leagues.get({ league_id: league.id })).name).toBe("Ladder");
    expect(
      (await admin.leagues.update({ league_id: league.id, body: { description: "weekly" } }))
        .description,
    ).toBe("weekly");
    expect(await admin.leagues.gameOfWeek()).toBeNull();
    await admin.leagues.update({ league_id: league.id, body: { is_game_of_week: true } });
    expect((await admin.leagues.gameOfWeek())?.id).toBe(league.id);

    expect(
      await admin.leagues.replaceSettings({
        league_id: league.id,
        body: { ladder: { ranking: "elo" } },
      }),
    ).toEqual({ ladder: { ranking: "elo" } });
    expect(await admin.leagues.getSettings({ league_id: league.id })).toEqual({
      ladder: { ranking: "elo" },
    });
    expect(
      await admin.leagues.updateLocks({ league_id: league.id, body: { submissions_locked: true } }),
    ).toEqual({ submissions_locked: true, game_version_locked: false });
    expect(await admin.leagues.getLocks({ league_id: league.id })).toEqual({
      submissions_locked: true,
      game_version_locked: false,
    });
    expect(
      (await admin.leagues.setRoundsPaused({ league_id: league.id, body: { paused: true } }))
        .rounds_paused_at,
    ).not.toBeNull();

    const board = await userClient.campaign.get({ league_id: league.id });
    expect(board.geometry).toEqual({ width: 6, height: 6 });
    expect(await userClient.campaign.history({ league_id: league.id })).toEqual([]);
    const preview = await admin.campaign.migrate({ league_id: league.id });
    expect(preview).toMatchObject({ dry_run: true, applied: false, cells_after: 36 });
    expect(
      (await admin.campaign.migrate({ league_id: league.id, body: { dry_run: false } })).applied,
    ).toBe(true);

    const [top] = await admin.divisions.list({ league_id: league.id });
    if (!top) throw new Error("the league has no division");
    const replaced = await admin.leagues.replaceDivisions({
      league_id: league.id,
      body: [
        { id: top.id, name: "Top", level: 0 },
        { name: "Second", level: 1 },
      ],
    });
    expect(replaced.map((d) => d.name).sort()).toEqual(["Second", "Top"]);
    expect(
      (await admin.leagues.divisionLadder({ league_id: league.id })).map((d) => d.level),
    ).toEqual([0, 1]);
    expect((await admin.divisions.get({ division_id: top.id })).league.id).toBe(league.id);
    const names: string[] = [];
    for await (const division of admin.divisions.list.iterate({ league_id: league.id }))
      names.push(division.name);
    expect(names.sort()).toEqual(["Second", "Top"]);
  });

  it("replays a create with the same Idempotency-Key and body, and refuses the key with another body (409)", async () => {
    const game = await admin.games.create({ body: { name: "Idem" } });
    const body = { name: "Once", game_id: game.id };
    const first = await admin.leagues.create({ body }, { idempotencyKey: "key-1" });
    const again = await admin.leagues.create({ body }, { idempotencyKey: "key-1" });
    expect(again.id).toBe(first.id);
    expect((await admin.leagues.list({ game_id: game.id })).map((l) => l.id)).toEqual([first.id]);
    const error = await admin.leagues
      .create({ body: { ...body, name: "Other" } }, { idempotencyKey: "key-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error instanceof ConflictError && error.errorType).toBe("idempotency_key_reused");
  });
});

describe("a write whose response is lost", () => {
  it("is retried with the same Idempotency-Key and creates one league, not two", async () => {
    const game = await admin.games.create({ body: { name: "Dropped" } });
    const keys: (string | null)[] = [];
    let dropped = false;
    // The first request reaches the real server and is handled; its response is then lost,
    // as when a connection drops after the server answered.
    const dropFirstResponse = recordingFetch("");
    const flaky: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      keys.push(request.headers.get("idempotency-key"));
      const response = await dropFirstResponse(request);
      if (!dropped) {
        dropped = true;
        throw new TypeError("fetch failed", { cause: new Error("socket hang up") });
      }
      return response;
    };
    const sdk = clientFor(server.adminToken, {
      fetch: flaky,
      retries: { maxRetries: 2, backoffBaseMs: 10 },
    });
    const league = await sdk.leagues.create({ body: { name: "Exactly once", game_id: game.id } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/.+/);
    expect(keys[1]).toBe(keys[0]);
    expect((await admin.leagues.list({ game_id: game.id })).map((l) => l.id)).toEqual([league.id]);
  });
});

describe("coworlds, the runner queue and episodes", () => {
  const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");
  const manifest = JSON.parse(readFileSync(join(gridrush, "coworld_manifest.json"), "utf8")) as {
    game: { name: string; version: string };
  };
  const results = { scores: [5, 2, 0], winner_slot: 0, turns: 30, seed: 7 };

  it("uploads and certifies a coworld; a runner leases, runs and completes the episode; its results read back", async () => {
    const runner = clientFor(await server.machineToken("sdk-runner"));
    const bundle = new Uint8Array(await packDirectory(gridrush));
    const uploaded = await admin.coworlds.uploadBundle({ body: bundle });
    expect(uploaded.size_bytes).toBe(bundle.length);
    const coworld = await admin.coworlds.upload({
      body: {
        manifest: { ...manifest, game: { ...manifest.game, version: "7.0.0" } },
        bundle_upload_id: uploaded.upload_id,
      },
    });
    expect(coworld.canonical).toBe(true);
    expect(
      (await admin.coworlds.list({ name: manifest.game.name, canonical_only: true })).map(
        (c) => c.id,
      ),
    ).toEqual([coworld.id]);
    expect((await admin.coworlds.get({ coworld_id: coworld.id })).version).toBe("7.0.0");
    expect((await admin.coworlds.getCertification({ coworld_id: coworld.id })).state).toBe(
      "never_run",
    );

    const secret = await admin.coworldSecrets.put({
      coworld_name: manifest.game.name,
      secret_name: "API_KEY",
      body: new TextEncoder().encode("s3cr3t"),
    });
    expect(secret.size_bytes).toBe(6);
    expect(
      (await admin.coworldSecrets.list({ coworld_name: manifest.game.name })).map(
        (r) => r.secret_name,
      ),
    ).toContain("API_KEY");

    const queued = await admin.coworlds.certify({ coworld_id: coworld.id });
    expect(queued.state).toBe("queued");
    const { jobs } = await runner.runner.lease({
      body: { runner_id: "sdk", capacity: 1, runtimes: ["process"], isolation: "sandbox" },
    });
    const job = jobs[0];
    if (!job) throw new Error("no job leased");
    expect(job.episode_request_id).toBe(queued.episode_request_id);
    expect(job.secrets).toEqual({ API_KEY: "s3cr3t" });
    expect(
      (
        await runner.runner.heartbeat({
          job_id: job.job_id,
          lease_token: job.lease_token,
          body: { runner_id: "sdk" },
        })
      ).cancel,
    ).toBe(false);
    const blob = await runner.runner.downloadBlob({ sha256: job.coworld.bundle_sha256 ?? "" });
    expect(Buffer.from(blob).equals(Buffer.from(bundle))).toBe(true);
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
      body: new TextEncoder().encode("seat 0 says hi\n"),
    });
    await runner.runner.uploadArtifact({
      job_id: job.job_id,
      lease_token: job.lease_token,
      artifact_name: "policy-artifact-1",
      body: new Uint8Array([1, 2, 3]),
    });
    expect(
      (
        await runner.runner.complete({
          job_id: job.job_id,
          lease_token: job.lease_token,
          body: { runner_id: "sdk", results },
        })
      ).status,
    ).toBe("completed");
    expect((await admin.coworlds.getCertification({ coworld_id: coworld.id })).state).toBe(
      "certified",
    );

    const episode = await admin.episodeRequests.get({ episode_request_id: job.episode_request_id });
    expect(episode.status).toBe("completed");
    expect(episode.scores.map((x) => x.score)).toEqual([5, 2, 0]);
    const replay = await admin.episodeRequests.getArtifact({
      episode_request_id: job.episode_request_id,
      artifact_type: "replay",
    });
    expect(new TextDecoder().decode(replay)).toBe('{"turn":1}\n');
    const byJob = await admin.episodeRequests.getJobArtifact({
      job_id: job.job_id,
      artifact_type: "replay",
    });
    expect(new TextDecoder().decode(byJob)).toBe('{"turn":1}\n');
    expect(
      (await admin.episodeRequests.getStats({ episode_request_id: job.episode_request_id })).steps,
    ).toBe(30);
    const seats = await admin.episodeRequests.listPolicyArtifacts({
      episode_request_id: job.episode_request_id,
    });
    expect(seats[0]?.has_log).toBe(true);
    expect(
      await admin.episodeRequests.getPolicyLog({
        episode_request_id: job.episode_request_id,
        policy_version_id: seats[0]?.policy_version_id ?? "bundled",
        idx: 0,
      }),
    ).toBe("seat 0 says hi\n");
    expect(seats.map((s) => s.has_artifact)).toEqual([false, true, false]);
    expect([
      ...(await admin.episodeRequests.getPolicyArtifact({
        episode_request_id: job.episode_request_id,
        policy_version_id: seats[1]?.policy_version_id ?? "bundled",
        idx: 1,
      })),
    ]).toEqual([1, 2, 3]);
    const listed: string[] = [];
    for await (const request of admin.episodeRequests.list.iterate({ limit: 1 }))
      listed.push(request.id);
    expect(listed).toContain(job.episode_request_id);
    const changes = await admin.episodeRequests.changes();
    expect(changes.entries.map((e) => e.id)).toContain(job.episode_request_id);

    expect(
      (
        await admin.coworldSecrets.delete({
          coworld_name: manifest.game.name,
          secret_name: "API_KEY",
        })
      ).secret_name,
    ).toBe("API_KEY");
  });

  it("records a failed episode reported by the runner", async () => {
    const runner = clientFor(await server.machineToken("sdk-runner-2"));
    const coworld = await admin.coworlds.upload({
      body: { manifest: { ...manifest, game: { ...manifest.game, version: "7.1.0" } } },
    });
    await admin.coworlds.certify({ coworld_id: coworld.id });
    const [job] = (
      await runner.runner.lease({
        body: { runner_id: "sdk", capacity: 1, runtimes: ["process"], isolation: "sandbox" },
      })
    ).jobs;
    if (!job) throw new Error("no job leased");
    const failed = await runner.runner.fail({
      job_id: job.job_id,
      lease_token: job.lease_token,
      body: {
        runner_id: "sdk",
        error_type: "player_failure",
        error: "slot 1 left",
        failed_policy_index: 1,
      },
    });
    expect(failed.status).toBe("failed");
    expect((await admin.coworlds.getCertification({ coworld_id: coworld.id })).state).toBe(
      "failed",
    );
  });

  it("registers container images, policy bundles, secret environments and policy versions", async () => {
    const { image } = await userClient.containerImages.upload({
      body: { name: "ghcr.io/me/policy:1", client_hash: "sha256:abc" },
    });
    expect((await userClient.containerImages.complete({ body: { id: image.id } })).status).toBe(
      "complete",
    );
    expect((await userClient.containerImages.list()).map((i) => i.id)).toContain(image.id);
    expect((await userClient.containerImages.get({ image_id: image.id })).name).toBe(
      "ghcr.io/me/policy:1",
    );

    const policyBundle = await userClient.policyBundles.upload({
      body: new Uint8Array(await packDirectory(join(gridrush, "players"))),
    });
    expect(
      (await userClient.policyBundles.complete({ body: { id: policyBundle.id } })).status,
    ).toBe("complete");
    const secretEnv = await userClient.policies.createSecretEnv({
      body: { env: { TOKEN: "t0k" } },
    });
    expect(secretEnv.variable_names).toEqual(["TOKEN"]);

    const v1 = await userClient.policyVersions.create({
      body: { name: "sdk-bot", container_image_id: image.id, policy_secret_env_id: secretEnv.id },
    });
    const v2 = await userClient.policyVersions.create({
      body: { name: "sdk-bot", policy_bundle_id: policyBundle.id, run: ["node", "greedy.ts"] },
    });
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect((await userClient.policyVersions.get({ policy_version_id: v1.id })).has_secret_env).toBe(
      true,
    );
    expect((await userClient.policyVersions.getStats({ policy_version_id: v1.id })).name).toBe(
      "sdk-bot",
    );
    // Its owner opens it to scrimmage: others may seat it anywhere.
    expect(
      (
        await userClient.policyVersions.update({
          policy_version_id: v2.id,
          body: { open_to_scrimmage: true },
        })
      ).open_to_scrimmage,
    ).toBe(true);
    expect(
      (await userClient.policyVersions.list({ name: "sdk-bot", mine: true }))
        .map((v) => v.version)
        .sort(),
    ).toEqual([1, 2]);
    const page = await userClient.policyVersions.search({ name_exact: "sdk-bot", version: 2 });
    expect(page.entries.map((v) => v.id)).toEqual([v2.id]);
    const all: number[] = [];
    for await (const v of userClient.policyVersions.search.iterate({
      name_exact: "sdk-bot",
      limit: 1,
    }))
      all.push(v.version);
    expect(all.sort()).toEqual([1, 2]);
  });

  it("seeds a coworld's league and patches its commissioner, as coworld's upload client does", async () => {
    const name = "sdk-seeded";
    await userClient.coworlds.upload({
      body: {
        manifest: {
          ...manifest,
          game: { ...manifest.game, name, version: "1.0.0" },
          commissioner: [{ id: "league", type: "commissioner", image: "example/c:1" }],
        },
      },
    });
    const seed = await userClient.coworldLeagueSeeds.create({
      body: { coworld_name: name, overrides: { commissioner_runnable_id: "league" } },
    });
    expect(seed).toMatchObject({
      coworld_name: name,
      template: "commissioner_driven",
      enabled: true,
    });
    expect((await userClient.coworldLeagueSeeds.list()).map((s) => s.id)).toEqual([seed.id]);
    const updated = await userClient.coworldLeagueSeeds.update({
      coworld_name: name,
      body: { overrides: { description: "Weekly" } },
    });
    expect(updated.overrides).toEqual({ description: "Weekly" });

    const { image } = await userClient.containerImages.upload({
      body: { name: "ghcr.io/me/commissioner:2", client_hash: "sha256:c2" },
    });
    await userClient.containerImages.complete({ body: { id: image.id } });
    const patched = await userClient.coworlds.patchCommissioner({
      body: { coworld_name: name, container_image_id: image.id },
    });
    expect(patched.version).toBe("1.0.1");
    expect(patched.manifest.commissioner?.[0]?.image).toBe(image.id);
  });
});

describe("league play", () => {
  const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");
  const manifest = JSON.parse(readFileSync(join(gridrush, "coworld_manifest.json"), "utf8")) as {
    game: { name: string; version: string };
  };

  it("submits, seats a round, settles it through the runner, and shows standings, feed and live events", async () => {
    const bundle = new Uint8Array(await packDirectory(gridrush));
    const { upload_id } = await admin.coworlds.uploadBundle({ body: bundle });
    const coworld = await admin.coworlds.upload({
      body: {
        manifest: { ...manifest, game: { ...manifest.game, version: "9.0.0" } },
        bundle_upload_id: upload_id,
      },
    });
    const league = await admin.leagues.create({
      body: {
        name: "Play",
        game_id: coworld.game_id,
        public: true,
        divisions: [{ name: "Top", level: 0 }],
      },
    });
    const [division] = await admin.divisions.list({ league_id: league.id });
    if (!division) throw new Error("no division");

    const live: LiveEvent[] = [];
    const info = await admin.events.info();
    expect(info.protocol).toBe("websocket");
    const subscription = admin.events.subscribe([`league:${league.id}`], {
      onEvent: (e) => live.push(e),
      sinceSeq: info.last_seq,
    });

    const policyBundle = await userClient.policyBundles.upload({
      body: new Uint8Array(await packDirectory(join(gridrush, "players"))),
    });
    await userClient.policyBundles.complete({ body: { id: policyBundle.id } });
    const seats = [];
    for (const name of ["greedy", "wanderer"]) {
      const player = await userClient.players.create({ body: { name: `p-${name}` } });
      const version = await userClient.policyVersions.create({
        body: {
          name: `lp-${name}`,
          policy_bundle_id: policyBundle.id,
          run: ["node", `${name}.ts`],
          player_id: player.id,
        },
      });
      const submission = await userClient.leagueSubmissions.create({
        body: { league_id: league.id, policy_version_id: version.id, player_id: player.id },
      });
      expect(submission.status).toBe("placed");
      seats.push({ player, version, submission });
    }
    expect((await userClient.leagueSubmissions.list({ league_id: league.id })).length).toBe(2);
    const memberships = await userClient.memberships.list({
      league_id: league.id,
      champions_only: true,
    });
    expect(memberships.map((m) => m.is_champion)).toEqual([true, true]);
    const portfolio = await userClient.memberships.portfolio({ limit: 1000 });
    expect(portfolio.map((s) => s.player_id).sort()).toEqual(seats.map((s) => s.player.id).sort());
    expect(portfolio.map((s) => s.policy_label).sort()).toEqual(["lp-greedy:v1", "lp-wanderer:v1"]);
    const first = memberships[0];
    if (!first) throw new Error("no membership");
    expect(
      (await userClient.memberships.setChampion({ membership_id: first.id })).is_champion,
    ).toBe(true);

    const seedVersion = seats[0]?.version.id ?? "";
    expect(
      (
        await admin.leagues.replaceSeedPolicies({
          league_id: league.id,
          body: { policy_version_ids: [seedVersion] },
        })
      ).policy_version_ids,
    ).toEqual([seedVersion]);
    expect(
      (await admin.leagues.getSeedPolicies({ league_id: league.id })).policy_version_ids,
    ).toEqual([seedVersion]);

    const cup = await admin.tournaments.create({
      league_id: league.id,
      body: {
        name: "SDK Cup",
        format: "single_elimination",
        policy_version_ids: seats.map((s) => s.version.id),
      },
    });
    expect(cup).toMatchObject({ status: "draft", seeding: "given" });
    expect(
      (await admin.tournaments.update({ tournament_id: cup.id, body: { episodes_per_match: 2 } }))
        .episodes_per_match,
    ).toBe(2);
    expect(
      (await userClient.tournaments.list({ league_id: league.id })).map((x) => x.id),
    ).toContain(cup.id);
    expect((await admin.tournaments.lock({ tournament_id: cup.id })).matches).toHaveLength(1);
    const running = await admin.tournaments.start({ tournament_id: cup.id });
    expect(running.waves).toHaveLength(1);
    expect((await admin.tournaments.advance({ tournament_id: cup.id })).status).toBe("running");
    expect((await admin.tournaments.cancel({ tournament_id: cup.id })).status).toBe("cancelled");
    expect((await userClient.tournaments.get({ tournament_id: cup.id })).status).toBe("cancelled");

    const triggered = await admin.leagues.triggerRound({ league_id: league.id });
    expect(triggered.skipped).toEqual([]);
    const round = triggered.rounds[0];
    if (!round) throw new Error("no round started");
    const page = await admin.rounds.list({ league_id: league.id });
    expect(page.entries.map((r) => r.id)).toEqual([round.id]);
    const walked: string[] = [];
    for await (const r of admin.rounds.list.iterate({ league_id: league.id, limit: 1 }))
      walked.push(r.id);
    expect(walked).toEqual([round.id]);
    const pools = await admin.pools.list({ round_id: round.id });
    const pool = pools[0];
    if (!pool) throw new Error("no pool");
    expect((await admin.pools.get({ pool_id: pool.id })).members).toHaveLength(2);

    const runner = clientFor(await server.machineToken("league-runner"));
    const played: string[] = [];
    // The round's episodes, played by this test as the runner. (A settled round starts the
    // next one, so the queue never runs dry: stop when this round is done.)
    for (
      let i = 0;
      i < 5 && (await admin.rounds.get({ round_id: round.id })).status !== "completed";
      i++
    ) {
      const { jobs } = await runner.runner.lease({
        body: { runner_id: "lp", capacity: 4, runtimes: ["process"], isolation: "sandbox" },
      });
      played.push(...jobs.map((job) => job.episode_request_id));
      for (const job of jobs)
        await runner.runner.complete({
          job_id: job.job_id,
          lease_token: job.lease_token,
          body: {
            runner_id: "lp",
            results: {
              scores: job.players.map((p) => 10 - p.position),
              winner_slot: 0,
              turns: 40,
              seed: 1,
            },
          },
        });
    }
    expect((await admin.rounds.get({ round_id: round.id })).status).toBe("completed");
    const board = await admin.divisions.leaderboard({ division_id: division.id });
    expect(board?.map((row) => row.rounds_played)).toEqual([1, 1]);
    // The same standings with the division named by id, in one read (`gauntlet watch`).
    const view = await admin.divisions.standingsView({ division: division.id });
    expect([view.division.id, view.leaderboard?.length]).toEqual([division.id, 2]);
    // The ledger: the ratings are what the record gives; what beats what; a void with a reason.
    const recomputed = await admin.divisions.recomputeRatings({
      division_id: division.id,
      body: { dry_run: true },
    });
    expect(recomputed.rows.map((row) => row.difference)).toEqual([0, 0]);
    const pairwise = await admin.divisions.pairwise({ division_id: division.id });
    expect(pairwise.players).toHaveLength(2);
    expect(pairwise.episodes).toBeGreaterThan(0);
    const voided = await admin.episodeRequests.void({
      episode_request_id: played[0] ?? "",
      body: { reason: "replayed by the SDK's test" },
    });
    expect(voided.reason).toBe("replayed by the SDK's test");
    const views = await admin.divisions.leaderboards({ division_id: division.id });
    expect(views.views.length).toBeGreaterThan(0);

    // cogames' view of the same league: a season, its division a pool, its episodes matches.
    const season_name = league.id;
    const pool_name = division.name;
    expect((await userClient.seasons.list()).map((x) => x.name)).toContain(league.id);
    expect((await userClient.seasons.get({ season_name })).pools.map((p) => p.name)).toEqual([
      pool_name,
    ]);
    expect(await userClient.seasons.versions({ season_name })).toHaveLength(1);
    expect(await userClient.seasons.leaderboard({ season_name })).toHaveLength(2);
    expect(
      await userClient.seasons.poolLeaderboard({
        season_name,
        pool_name,
        leaderboard_type: "team",
      }),
    ).toHaveLength(2);
    expect(await userClient.seasons.scorePoliciesLeaderboard({ season_name })).toHaveLength(2);
    expect((await userClient.seasons.policies({ season_name, mine: true })).length).toBe(2);
    expect((await userClient.seasons.poolConfig({ season_name, pool_name })).pool_name).toBe(
      pool_name,
    );
    expect((await userClient.seasons.stages({ season_name }))[0]?.name).toBe(pool_name);
    expect((await userClient.seasons.progress({ season_name })).phase).toBe("policy_eval");
    expect(await userClient.seasons.teams({ season_name })).toHaveLength(2);
    const configId = division.id.replace(/^div_/, "");
    expect((await userClient.seasons.config({ config_id: configId })).division_id).toBe(
      division.id,
    );
    const pv = seats[0]?.version.id ?? "";
    expect((await userClient.seasons.policyMemberships({ policy_version_id: pv }))[0]?.action).toBe(
      "added",
    );
    expect((await userClient.seasons.myMemberships())[pv]).toEqual([league.id]);
    const matches = await userClient.seasons.matches({ season_name, limit: 50 });
    expect(matches.length).toBeGreaterThan(0);
    const match_id = (played[1] ?? played[0] ?? "").replace(/^ereq_/, "");
    expect((await userClient.seasons.match({ match_id })).season_name).toBe(league.id);
    expect(await userClient.seasons.matchPolicyLogs({ match_id, policy_version_id: pv })).toEqual(
      [],
    );
    await expect(
      userClient.seasons.matchPolicyLog({ match_id, policy_version_id: pv, agent_idx: 0 }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const spec = await userClient.seasons.matchArtifact({
      match_id,
      policy_version_id: pv,
      artifact_type: "spec",
    });
    expect(new TextDecoder().decode(spec)).toContain(league.game.coworld_id ?? "cow_");
    await expect(
      userClient.seasons.submit({ season_name, body: { policy_version_id: pv } }),
    ).rejects.toBeInstanceOf(ConflictError);

    const feed = await admin.competitionEvents.list({ league_id: league.id });
    expect(feed.map((e) => e.event_type)).toContain("submission_placed");
    const retired = await userClient.memberships.retire({
      membership_id: first.id,
      body: { reason: "done" },
    });
    expect(retired.status).toBe("retired");

    expect((await userClient.lobbies.access({ league_id: league.id })).can_create).toBe(true);
    const lobby = await userClient.lobbies.create({
      league_id: league.id,
      body: { num_players: 2, seats: [{ kind: "human_open" }, { kind: "human_open" }] },
    });
    await userClient.lobbies.claim({
      lobby_id: lobby.id,
      position: 0,
      body: { policy_version_id: seats[0]?.version.id ?? "" },
    });
    expect(
      (await userClient.lobbies.leave({ lobby_id: lobby.id })).seats[0]?.claimed_at,
    ).toBeNull();
    for (const [position, seat] of seats.entries())
      await userClient.lobbies.claim({
        lobby_id: lobby.id,
        position,
        body: { policy_version_id: seat.version.id },
      });
    const started = await userClient.lobbies.start({ lobby_id: lobby.id });
    expect(started.experience_request_id).toMatch(/^xreq_/);
    expect((await admin.lobbies.get({ lobby_id: lobby.id })).status).toBe("running");
    const other = await userClient.lobbies.create({
      league_id: league.id,
      body: { num_players: 2, seats: [{ kind: "human_open" }, { kind: "random" }] },
    });
    expect((await userClient.lobbies.cancel({ lobby_id: other.id })).status).toBe("cancelled");
    const live1 = await userClient.lobbies.create({
      league_id: league.id,
      body: { num_players: 2, seats: [{ kind: "human_open" }, { kind: "random" }] },
    });
    expect(
      (
        await userClient.lobbies.update({
          lobby_id: live1.id,
          body: { game_config_overrides: { turns: 3 } },
        })
      ).game_config_overrides,
    ).toEqual({ turns: 3 });
    expect(
      (
        await userClient.lobbies.setSeat({
          lobby_id: live1.id,
          position: 1,
          body: { kind: "human_open" },
        })
      ).seats[1]?.kind,
    ).toBe("human_open");
    await userClient.lobbies.claim({ lobby_id: live1.id, position: 0, body: {} });
    expect(
      (await userClient.lobbies.removeSeatPlayer({ lobby_id: live1.id, position: 0 })).seats[0]
        ?.claimed_at,
    ).toBeNull();
    const launched = await userClient.lobbies.launch({ lobby_id: live1.id });
    expect(launched.play_session_id).toMatch(/^ps_/);
    expect((await userClient.lobbies.end({ lobby_id: live1.id })).status).toBe("cancelled");

    await vi.waitFor(() => expect(live.map((e) => e.type)).toContain("round_completed"), {
      timeout: 5_000,
    });
    expect(live.map((e) => e.seq)).toEqual([...live.map((e) => e.seq)].sort((a, b) => a - b));
    expect(new Set(live.map((e) => e.seq)).size).toBe(live.length);
    expect(live.map((e) => e.type)).toContain("submission_placed");
    subscription.close();
    await subscription.closed;
  });
});

describe("evaluations", () => {
  const gridrush = join(import.meta.dirname, "../../../examples/coworlds/gridrush");
  const manifest = JSON.parse(readFileSync(join(gridrush, "coworld_manifest.json"), "utf8")) as {
    game: { name: string; version: string };
  };

  it("creates, reads and cancels an experience request, downloads an episode bundle, and uploads episodes in bulk", async () => {
    const { upload_id } = await admin.coworlds.uploadBundle({
      body: new Uint8Array(await packDirectory(gridrush)),
    });
    const coworld = await admin.coworlds.upload({
      body: {
        manifest: { ...manifest, game: { ...manifest.game, version: "9.1.0" } },
        bundle_upload_id: upload_id,
      },
    });
    const policyBundle = await userClient.policyBundles.upload({
      body: new Uint8Array(await packDirectory(join(gridrush, "players"))),
    });
    await userClient.policyBundles.complete({ body: { id: policyBundle.id } });
    const versions = [];
    for (const name of ["greedy", "random"])
      versions.push(
        await userClient.policyVersions.create({
          body: {
            name: `ev-${name}`,
            policy_bundle_id: policyBundle.id,
            run: ["node", `${name}.ts`],
          },
        }),
      );

    const created = await userClient.experienceRequests.create({
      body: {
        coworld_id: coworld.id,
        roster: versions.map((v) => ({ player: { policy_ref: v.id } })),
        num_episodes: 2,
      },
    });
    expect(created.episode_count).toBe(2);
    expect(
      (await userClient.experienceRequests.list({ mine: true })).entries.map((r) => r.id),
    ).toContain(created.id);
    const detail = await userClient.experienceRequests.get({ experience_request_id: created.id });
    expect(detail.episodes).toHaveLength(2);
    const episodes = await userClient.experienceRequests.episodes({
      experience_request_id: created.id,
    });
    expect(episodes.map((e) => e.id).sort()).toEqual(detail.episodes.map((e) => e.id).sort());

    const playModule = await admin.playModules.upload({
      coworld_id: coworld.id,
      kind: "player_client",
      body: new Uint8Array(await packDirectory(join(gridrush, "play", "client"))),
    });
    expect(
      (await userClient.playModules.list({ coworld_id: coworld.id })).map((m) => m.id),
    ).toEqual([playModule.id]);
    expect((await userClient.playModules.get({ play_module_id: playModule.id })).entry).toBe(
      "index.html",
    );
    const page = await userClient.playModules.getFile({
      play_module_id: playModule.id,
      file_path: "index.html",
    });
    expect(new TextDecoder().decode(page)).toContain("client.js");

    const session = await userClient.playSessions.create({
      body: { coworld_id: coworld.id, opponents: [versions[0]?.id ?? ""] },
    });
    expect(session.join_url).toContain(`/v2/play-modules/${playModule.id}/files/index.html#ws=`);
    expect((await userClient.playSessions.get({ play_session_id: session.id })).status).toBe(
      "waiting",
    );
    expect(
      (await userClient.playSessions.socketInfo({ play_session_id: session.id, token: "t" }))
        .protocol,
    ).toBe("websocket");
    expect(
      (await userClient.playSessions.relayInfo({ play_session_id: session.id, token: "t" }))
        .protocol,
    ).toBe("websocket");

    const hosted = await userClient.hostedGames.create({
      body: { coworld_id: coworld.id, variant_id: null, allow_spectators: true },
    });
    expect(hosted.player_count).toBe(2);
    expect(await userClient.hostedGames.joinPage({ session_id: hosted.session_id })).toContain(
      "Join a slot",
    );
    expect(
      await userClient.hostedGames.joinFromPage({ session_id: hosted.session_id, body: {} }),
    ).toContain("#ws=");
    const joined = await userClient.hostedGames.join({ session_id: hosted.session_id });
    expect(joined.slot).toBe(1);
    const hostedEpisode =
      (await userClient.hostedGames.get({ session_id: hosted.session_id })).episode_request_id ??
      "";
    expect(hostedEpisode).toMatch(/^ereq_/);
    expect((await userClient.hostedGames.list()).map((g) => g.session_id)).toContain(
      hosted.session_id,
    );
    expect(await userClient.hostedGames.lobbyPage({ session_id: hosted.session_id })).toContain(
      "2 of 2 player slot(s) joined",
    );
    expect((await userClient.hostedGames.terminate({ session_id: hosted.session_id })).status).toBe(
      "cancelled",
    );
    const viewer = await admin.playModules.upload({
      coworld_id: coworld.id,
      kind: "replay_viewer",
      body: new Uint8Array(await packDirectory(join(gridrush, "play", "replay"))),
    });
    const replay = await userClient.replays.createSession({
      body: {
        coworld_id: coworld.id,
        episode_id: hostedEpisode,
        replay_uri: "https://example.org/r.jsonl",
      },
    });
    expect(replay.viewer_url).toContain(`/v2/play-modules/${viewer.id}/files/index.html#replay=`);
    const capability =
      new URL(decodeURIComponent(replay.viewer_url.split("#replay=")[1] ?? ""), "http://x").pathname
        .split("/")
        .pop() ?? "";
    // The capability reads that episode's replay; this game was ended before it recorded one.
    await expect(userClient.replays.read({ capability })).rejects.toMatchObject({ status: 404 });
    // A page's link to the viewer says the same: there is no replay to open.
    await expect(
      userClient.replays.openViewer({ episode_request_id: hostedEpisode }),
    ).rejects.toMatchObject({ status: 422 });

    const zip = await userClient.episodeRequests.getBundle({
      episode_request_id: episodes[0]?.id ?? "",
    });
    expect(new TextDecoder().decode(zip.slice(0, 2))).toBe("PK");

    const cancelled = await userClient.experienceRequests.cancel({
      experience_request_id: created.id,
    });
    expect(cancelled.status).toBe("cancelled");
    const again = await userClient.experienceRequests
      .cancel({ experience_request_id: created.id })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);

    const dir = mkdtempSync(join(tmpdir(), "gauntlet-sdk-bulk-"));
    try {
      const file = join(dir, "episodes.duckdb");
      await writeEpisodeFile(file, {
        episodes: 3,
        coworldId: coworld.id,
        policyVersionIds: [versions[0]?.id ?? "", versions[1]?.id ?? ""],
      });
      const started = await userClient.bulkUploads.start();
      const url = new URL(started.upload_url);
      await userClient.bulkUploads.putFile({
        upload_id: started.upload_id,
        expires: Number(url.searchParams.get("expires")),
        signature: url.searchParams.get("signature") ?? "",
        body: new Uint8Array(readFileSync(file)),
      });
      const completed = await userClient.bulkUploads.complete({
        body: { upload_id: started.upload_id },
      });
      expect(completed.episodes_created).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the cogames client's policies, episodes and assay runs", () => {
  it("uploads a policy zip to its address, browses policies, reads episodes and meets assay runs", async () => {
    const started = await userClient.policySubmits.start();
    const url = new URL(started.upload_url);
    await userClient.policySubmits.put({
      upload_id: started.upload_id,
      expires: Number(url.searchParams.get("expires")),
      signature: url.searchParams.get("signature") ?? "",
      body: new TextEncoder().encode("not a zip"),
    });
    // The bytes are not a zip: the upload names itself as the fault.
    const refused = await userClient.policySubmits
      .complete({ body: { upload_id: started.upload_id, name: "sdk-zip" } })
      .catch((e: unknown) => e);
    expect(isUnprocessableEntityError(refused) && refused.errors[0]?.loc).toEqual([
      "body",
      "upload_id",
    ]);
    const policies = await userClient.policies.browse({ name_exact: "sdk-bot" });
    expect(policies.entries.map((p) => [p.name, p.version_count])).toEqual([["sdk-bot", 2]]);

    const episodes = await admin.episodes.list({ limit: 5 });
    // The evaluations above completed episodes (their bulk upload among them).
    expect(episodes.length).toBeGreaterThan(0);
    const first = episodes[0];
    if (first) expect((await admin.episodes.get({ episode_id: first.id })).id).toBe(first.id);
    const queried = await admin.episodes.query({
      body: { episode_ids: episodes.map((e) => e.id) },
    });
    expect(queried.episodes.map((e) => e.id).sort()).toEqual(episodes.map((e) => e.id).sort());
    await expect(
      userClient.episodes.get({ episode_id: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toBeInstanceOf(NotFoundError);

    const [version] = (await userClient.policyVersions.search({ name_exact: "sdk-bot" })).entries;
    if (!version) throw new Error("sdk-bot has no version");
    // Its versions play no coworld yet, so an assay run has nowhere to play.
    await expect(
      userClient.assayRuns.create({
        body: { policy_version_id: version.id, missions: [{ mission_name: "m", env_config: {} }] },
      }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
    expect(await userClient.assayRuns.list({ policy_version_id: version.id })).toEqual([]);
    const unknown = { run_id: "00000000-0000-4000-8000-000000000000" };
    await expect(userClient.assayRuns.get(unknown)).rejects.toBeInstanceOf(NotFoundError);
    await expect(userClient.assayRuns.results(unknown)).rejects.toBeInstanceOf(NotFoundError);
    await expect(userClient.assayRuns.finalize(unknown)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("reporters", () => {
  it("registers a reporter, opens a run, posts an output with its key, reads it back by run, and rotates the key", async () => {
    const reporter = await userClient.reporters.register({
      body: { name: "SDK Recap", type: "round-summary" },
    });
    expect(reporter.created).toBe(true);
    const key = reporter.reporter_key ?? "";
    expect(key).toMatch(/^rptk_/);
    // Registering the name again updates it (coworld's upload client does so on every upload).
    const updated = await userClient.reporters.register({
      body: {
        name: "SDK Recap",
        display_name: "Recap",
        outputs: [{ name: "recap", type: "render-html", description: "The recap" }],
      },
    });
    expect(updated).toMatchObject({ id: reporter.id, created: false, reporter_key: null });
    expect((await clientFor(null).reporters.list({ q: "sdk recap" })).map((r) => r.id)).toContain(
      reporter.id,
    );
    expect((await clientFor(null).reporters.get({ reporter_id: reporter.id })).name).toBe(
      "SDK Recap",
    );
    const run = await userClient.reporterRuns.open({
      reporter_id: reporter.id,
      body: { subject_type: "text", subject_text: "sdk" },
    });
    const html = new TextEncoder().encode("<h1>Recap</h1>");
    const posted = await clientFor(null).reporterOutputs.post(
      { reporter_run_id: run.id, name: "recap.html", type: "html", body: html },
      { headers: { "X-Reporter-Key": key } },
    );
    expect(posted).toMatchObject({
      reporter_run_id: run.id,
      size_bytes: html.byteLength,
      media_type: "text/html; charset=utf-8",
    });
    const outputs = await clientFor(null).reporterRuns.output({ reporter_run_id: run.id });
    expect(outputs.map((o) => o.content_hash)).toEqual([posted.content_hash]);
    expect(
      (await clientFor(null).reporters.listOutputs({ reporter_id: reporter.id })).map((o) => o.id),
    ).toEqual([posted.id]);
    const bytes = await clientFor(null).reporterOutputs.get({ output_id: posted.id });
    expect(new TextDecoder().decode(bytes)).toBe("<h1>Recap</h1>");

    // A reporter's bundle (the hosted service's upload client): ask, PUT to the signed address,
    // complete; the same bytes again are the same version, with no second upload.
    const wasm = new TextEncoder().encode("(component)");
    const contentHash = createHash("sha256").update(wasm).digest("hex");
    const ask = {
      name: "SDK Recap",
      content_hash: contentHash,
      size_bytes: wasm.byteLength,
      attributes: { outputs: ["html"] },
    };
    const started = await userClient.reporters.requestBundleUpload({ body: ask });
    const address = new URL(started.upload_url ?? "");
    await userClient.uploads.put({
      upload_id: address.pathname.split("/").pop() ?? "",
      expires: Number(address.searchParams.get("expires")),
      signature: address.searchParams.get("signature") ?? "",
      body: wasm,
    });
    const completed = await userClient.reporters.completeBundleUpload({
      body: { name: ask.name, content_hash: contentHash, attributes: ask.attributes },
    });
    expect(completed.version).toMatchObject({ name: "SDK Recap", version: 1 });
    const again = await userClient.reporters.requestBundleUpload({ body: ask });
    expect([again.upload_url, again.existing_version?.id]).toEqual([null, completed.version.id]);
    // A coworld's replay viewer bundle: an address until the caller has completed those bytes.
    const viewer = { content_hash: contentHash, size_bytes: wasm.byteLength };
    const bundle = await userClient.coworlds.requestReplayViewerBundleUpload({ body: viewer });
    expect(bundle.bundle).toBe(`sha256:${contentHash}`);
    const viewerAddress = new URL(bundle.upload_url ?? "");
    await userClient.uploads.put({
      upload_id: viewerAddress.pathname.split("/").pop() ?? "",
      expires: Number(viewerAddress.searchParams.get("expires")),
      signature: viewerAddress.searchParams.get("signature") ?? "",
      body: wasm,
    });
    expect(
      (await userClient.coworlds.completeReplayViewerBundleUpload({ body: viewer })).bundle,
    ).toBe(`sha256:${contentHash}`);

    const rotated = await userClient.reporters.rotateKey({ reporter_id: reporter.id });
    const stale = await clientFor(null)
      .reporterOutputs.post(
        { reporter_run_id: run.id, name: "late.html", type: "html", body: html },
        { headers: { "X-Reporter-Key": key } },
      )
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(AuthenticationError);
    expect(rotated.reporter_key).not.toBe(reporter.reporter_key);
    const invalid = await clientFor(null)
      .reporterRuns.output({ reporter_run_id: "rrun_bad" })
      .catch((e: unknown) => e);
    expect(isUnprocessableEntityError(invalid) && invalid.errors[0]?.loc).toEqual([
      "path",
      "reporter_run_id",
    ]);
  });
});

describe("forums, wikis and player profiles", () => {
  it("posts, comments and votes; edits a wiki page and meets the edit conflict; reads and sets a player's profile", async () => {
    const forums = await userClient.forums.list();
    expect(forums[0]?.slug).toBe("general");
    const post = await userClient.posts.create({
      body: {
        forum: "general",
        title: "SDK post",
        body: "Hello *forum*",
        idempotency_key: "sdk-post-1",
      },
    });
    expect(
      (
        await userClient.posts.create({
          body: {
            forum: "general",
            title: "SDK post",
            body: "Hello *forum*",
            idempotency_key: "sdk-post-1",
          },
        })
      ).id,
    ).toBe(post.id);
    expect(
      (await userClient.forums.posts({ slug: "general", sort: "new" })).entries.map((p) => p.id),
    ).toContain(post.id);
    expect(
      (await userClient.forums.search({ slug: "general", q: "sdk post" })).entries.map(
        (e) => e.post.id,
      ),
    ).toEqual([post.id]);
    expect(
      (await userClient.forums.searchAll({ q: "sdk post" })).entries.map((e) => e.post.id),
    ).toEqual([post.id]);
    expect(await userClient.posts.markdown({ post_id: post.id })).toBe(
      "# SDK post\n\nHello *forum*\n",
    );
    expect(await admin.posts.vote({ post_id: post.id, body: { value: 1 } })).toMatchObject({
      score: 1,
      vote_count: 1,
      value: 1,
    });
    expect(
      (await userClient.posts.update({ post_id: post.id, body: { title: "SDK post, edited" } }))
        .edited,
    ).toBe(true);
    const comment = await admin.comments.create({ post_id: post.id, body: { body: "Welcome" } });
    expect(
      (
        await userClient.comments.vote({
          post_id: post.id,
          comment_id: comment.id,
          body: { value: -1 },
        })
      ).score,
    ).toBe(-1);
    const denied = await userClient.comments
      .update({ post_id: post.id, comment_id: comment.id, body: { body: "not mine" } })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(
      (
        await admin.comments.update({
          post_id: post.id,
          comment_id: comment.id,
          body: { body: "Welcome!" },
        })
      ).body,
    ).toBe("Welcome!");
    expect((await userClient.posts.get({ post_id: post.id })).comments.map((c) => c.id)).toEqual([
      comment.id,
    ]);
    expect(await admin.comments.delete({ post_id: post.id, comment_id: comment.id })).toEqual({
      id: comment.id,
      deleted: true,
    });
    expect(await userClient.posts.delete({ post_id: post.id })).toEqual({
      id: post.id,
      deleted: true,
    });

    const wiki = (await userClient.wikis.list())[0];
    if (!wiki) throw new Error("no wiki: a coworld was uploaded above, so there should be one");
    const page = await userClient.wikis.replacePage({
      slug: wiki.slug,
      page: "SDK",
      body: { body: "first", base_revision_id: null },
    });
    await admin.wikis.replacePage({
      slug: wiki.slug,
      page: "SDK",
      body: { body: "second", base_revision_id: page.page.revision_id },
    });
    const stale = await userClient.wikis
      .replacePage({
        slug: wiki.slug,
        page: "SDK",
        body: { body: "third", base_revision_id: page.page.revision_id },
      })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale instanceof ConflictError && stale.errorType).toBe("wiki_edit_conflict");
    expect((await userClient.wikis.getPage({ slug: wiki.slug, page: "SDK" })).body).toBe("second");
    expect(
      (await userClient.wikis.revisions({ page_id: page.page.id })).entries.map((r) => r.body),
    ).toEqual(["second", "first"]);
    expect(
      (await userClient.wikis.search({ slug: wiki.slug, q: "SECOND" })).entries.map(
        (h) => h.page.page,
      ),
    ).toEqual(["SDK"]);

    const player = await userClient.players.create({ body: { name: "profiled" } });
    expect(
      (
        await userClient.players.updateProfile({
          player_id: player.id,
          body: { display_name: "Profiled One" },
        })
      ).display_name,
    ).toBe("Profiled One");
    expect((await clientFor(null).players.profile({ player_id: player.id })).display_name).toBe(
      "Profiled One",
    );
  });
});

describe("errors from the real server", () => {
  it("400 BadRequestError for a request the HTTP layer cannot read", async () => {
    const error = await clientFor(null, { baseUrl: `${server.url}/%zz` })
      .whoami()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it("401, 403, 404, 422 with their bodies", async () => {
    const bad = await clientFor("not-a-token")
      .tokens.list()
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AuthenticationError);
    expect(bad instanceof AuthenticationError && bad.errorType).toBe("unauthorized");
    expect(bad instanceof AuthenticationError && bad.requestId).toMatch(/./);

    const denied = await userClient.games
      .create({ body: { name: "Nope" } })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);

    const missing = await admin.leagues
      .get({ league_id: "league_00000000-0000-4000-8000-00000000dead" })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing instanceof NotFoundError && missing.errorType).toBe("not_found");

    const invalid = await admin.leagues.get({ league_id: "nope" }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect(isUnprocessableEntityError(invalid) && invalid.errors[0]?.loc).toEqual([
      "path",
      "league_id",
    ]);
  });

  it("5xx InternalServerError after retrying: readiness answers 503 when its store is gone", async () => {
    const broken = await startTestServer();
    try {
      await broken.testStore.store.close();
      const events: RetryEvent[] = [];
      const error = await createClient({
        env: {},
        useSavedCredentials: false,
        baseUrl: broken.url,
        retries: { maxRetries: 1, backoffBaseMs: 10 },
        onRetry: (e) => void events.push(e),
      })
        .service.ready()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error instanceof InternalServerError && error.status).toBe(503);
      expect(events.map((e) => e.reason)).toEqual(["server_error"]);
    } finally {
      // Its store is closed already: closing it again may fail, which this test is not about.
      await bestEffort(broken.close());
    }
  });

  it("APITimeoutError and APIConnectionError", async () => {
    const slow = await startTestServer();
    try {
      await expect(
        clientFor(slow.adminToken, { baseUrl: slow.url, timeout: 1, retries: 0 }).leagues.list(),
      ).rejects.toBeInstanceOf(APITimeoutError);
    } finally {
      // A try aborted within 1 ms can leave a connection that never sent a request, which
      // the server's close() waits for (reported to the server's owner); end it here.
      slow.server.app.server.closeAllConnections();
      await slow.close();
    }
    const gone = await startTestServer();
    const url = gone.url;
    await gone.close();
    await expect(clientFor(null, { baseUrl: url, retries: 0 }).whoami()).rejects.toBeInstanceOf(
      APIConnectionError,
    );
  });
});

describe("shared budgets of the real server", () => {
  it("paces a 429 by Retry-After and then succeeds; without retries it is a RateLimitError with the budget", async () => {
    // 60 requests a minute: a burst of 60, then one credit a second.
    const limited = await startTestServer({
      env: { GAUNTLET_USER_CAPACITIES: JSON.stringify({ requestsPerMinute: 60 }) },
    });
    try {
      const c = createClient({
        env: {},
        useSavedCredentials: false,
        baseUrl: limited.url,
        token: limited.adminToken,
        elevated: true,
        retries: 0,
      });
      await Promise.all(Array.from({ length: 60 }, () => c.whoami()));
      expect(c.lastBudget?.buckets.requestsMinute?.limit).toBe(60);
      const error = await c.whoami().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      if (!isRateLimitError(error)) return;
      expect(error.sharedBudget).toBe(true);
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(error.budget?.outcome).toBe("rejected");
      expect(error.budget?.buckets.requestsMinute?.remaining).toBe(0);

      const events: RetryEvent[] = [];
      const paced = createClient({
        env: {},
        useSavedCredentials: false,
        baseUrl: limited.url,
        token: limited.adminToken,
        elevated: true,
        retries: { maxJitterMs: 200 },
        onRetry: (e) => void events.push(e),
      });
      const started = performance.now();
      expect((await paced.whoami()).is_admin).toBe(true);
      expect(events[0]?.reason).toBe("shared_budget");
      expect(performance.now() - started).toBeGreaterThanOrEqual(
        (error.retryAfterSeconds ?? 1) * 1000 - 50,
      );
      expect(paced.lastBudget?.outcome).toBe("allowed");
    } finally {
      await limited.close();
    }
  });
});

describe("commissioner jobs and player states", () => {
  it("a runner leases no commissioner job while none waits; an unknown job is 404; states are the owner's", async () => {
    const runner = clientFor(await server.machineToken("sdk-commissioners"));
    const leased = await runner.runner.leaseCommissioner({
      body: { runner_id: "sdk", runtimes: ["process"], isolation: "sandbox" },
    });
    expect(leased.job).toBeNull();
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(
      runner.runner.endCommissioner({
        job_id: unknown,
        lease_token: "glse_nothing",
        body: { runner_id: "sdk", outcome: "ended", log: "" },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await runner.runner.commissionerRelayInfo({ job_id: unknown })).description).toMatch(
      /WebSocket/i,
    );

    await expect(
      userClient.experienceRequests.playerState({
        coworld_name: "no-such-coworld",
        player_id: "player_00000000-0000-4000-8000-000000000000",
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const snapshot = await userClient.experienceRequests
      .snapshotState({
        coworld_name: "no-such-coworld",
        body: { player_ids: ["player_00000000-0000-4000-8000-000000000000"] },
      })
      .catch((e: unknown) => e);
    expect(snapshot instanceof NotFoundError || isUnprocessableEntityError(snapshot)).toBe(true);
  });
});

describe("coverage", () => {
  it("called every operation of the contract", () => {
    const missing = (Object.keys(contract) as OperationId[]).filter((id) => !covered.has(id));
    expect(missing).toEqual([]);
  });
});

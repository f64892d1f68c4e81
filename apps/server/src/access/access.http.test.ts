// The access rules as a hostile user meets them, two ordinary accounts apart: A may seat its own
// versions, a league's members in that league (on its coworld) and versions open to scrimmage,
// never B's private ones nor B's champion in a coworld of its own (in an experience request, a
// play session, a tournament); reads only the seats it owns; and nobody else sees a
// private evaluation's episodes or another user's version recipe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { EpisodeRequest, ExperienceRequestDetail, PolicyVersion } from "@gauntlet/core";

import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  scriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";

type ValidationBody = { detail: { loc: (string | number)[]; msg: string }[] };
type User = { id: string; token: string };

let t: TestServer;
let open: TestLeague;
let closed: TestLeague;
let mine: TestLeague;
let a: User;
let b: User;
/** A's own version, in no league. */
let aOwn: TestPlayer;
/** B's version in no league: private to B. */
let bPrivate: TestPlayer;
/** B's version competing in the public league. */
let bPublic: TestPlayer;
/** The private league's commissioner's version, competing there. */
let hidden: TestPlayer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  open = await createTestLeague(t);
  closed = await createTestLeague(t, { public: false });
  // The attacker of the first finding: a user with a coworld (and league) of their own.
  mine = await createTestLeague(t);
  a = await t.newUser();
  b = await t.newUser();
  aOwn = await open.addPlayer("Attacker", { owner: a });
  bPrivate = await open.addPlayer("Secret", { owner: b });
  bPublic = await open.addPlayer("Known", { owner: b });
  await open.submit(bPublic, {}, b.token);
  hidden = await closed.addPlayer("Hidden");
  await closed.submit(hidden);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** An evaluation in the open league (on its coworld), or on the coworld given alone. */
const experience = (
  token: string,
  refs: string[],
  where: Record<string, unknown> = { target: { league_id: open.league.id } },
) =>
  client(t.url, token).post<ExperienceRequestDetail & ValidationBody>("/v2/experience-requests", {
    ...where,
    roster: refs.map((ref) => ({ player: { policy_ref: ref } })),
    num_episodes: 1,
  });

const setOpen = (token: string, version: string, value: boolean) =>
  client(t.url, token).patch<PolicyVersion>(`/v2/policy-versions/${version}`, {
    open_to_scrimmage: value,
  });

describe("seating a policy version", () => {
  it("an experience request seats the requester's own versions and a league's members in that league, nothing else", async () => {
    for (const other of [bPrivate, hidden]) {
      const res = await experience(a.token, [aOwn.policyVersionId, other.policyVersionId]);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0]?.loc).toEqual(["body", "roster", 1, "player", "policy_ref"]);
    }
    // An unknown id reads exactly like a private one: the answer tells nothing of what exists.
    const unknown = "00000000-0000-4000-8000-000000000000";
    const [missing, secret] = await Promise.all(
      [unknown, bPrivate.policyVersionId].map((id) =>
        experience(a.token, [aOwn.policyVersionId, id]),
      ),
    );
    expect(missing?.body.detail[0]?.msg.replace(unknown, "ID")).toBe(
      secret?.body.detail[0]?.msg.replace(bPrivate.policyVersionId, "ID"),
    );
    const allowed = await experience(a.token, [aOwn.policyVersionId, bPublic.policyVersionId]);
    expect(allowed.status, allowed.text).toBe(201);
    // The owner seats its private version.
    expect(
      (await experience(b.token, [bPrivate.policyVersionId, hidden.policyVersionId])).status,
    ).toBe(422);
    expect(
      (await experience(b.token, [bPrivate.policyVersionId, bPublic.policyVersionId])).status,
    ).toBe(201);
  }, 60_000);

  it("a league's champion plays in no one else's coworld, and the refusal reads like an unknown id", async () => {
    const own = await mine.addPlayer("Probe");
    const elsewhere = [
      { coworld_id: mine.coworldId },
      // The league named, the coworld swapped for the attacker's.
      { target: { league_id: open.league.id, coworld_id: mine.coworldId } },
      // The league's coworld, outside the league: the requester commissions no league it is in.
      { coworld_id: open.coworldId },
    ];
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const where of elsewhere) {
      const [champion, missing] = await Promise.all(
        [bPublic.policyVersionId, unknown].map((id) =>
          experience(mine.commissioner.token, [own.policyVersionId, id], where),
        ),
      );
      expect(champion?.status, champion?.text).toBe(422);
      expect(champion?.status).toBe(missing?.status);
      expect(champion?.body.detail[0]?.loc).toEqual(["body", "roster", 1, "player", "policy_ref"]);
      expect(champion?.body.detail[0]?.msg.replace(bPublic.policyVersionId, "ID")).toBe(
        missing?.body.detail[0]?.msg.replace(unknown, "ID"),
      );
    }
    // A division's draw on another coworld seats nobody who did not consent.
    const topN = await client(t.url, mine.commissioner.token).post<ValidationBody>(
      "/v2/experience-requests",
      {
        target: { league_id: open.league.id, coworld_id: mine.coworldId },
        roster: [{ player: { policy_ref: own.policyVersionId } }, { player: { top_n: 3 } }],
        num_episodes: 1,
      },
    );
    expect(topN.status, topN.text).toBe(422);
    expect(topN.body.detail[0]?.loc).toEqual(["body", "roster", 1, "player", "top_n"]);

    // Its owner seats it anywhere; the league's commissioner and an admin on the league's coworld.
    const pair = [bPublic.policyVersionId, bPublic.policyVersionId];
    const byOwner = await experience(b.token, [bPublic.policyVersionId, bPrivate.policyVersionId], {
      coworld_id: mine.coworldId,
    });
    expect(byOwner.status, byOwner.text).toBe(201);
    for (const token of [open.commissioner.token, t.adminToken]) {
      const onLeague = await experience(token, pair, { coworld_id: open.coworldId });
      expect(onLeague.status, onLeague.text).toBe(201);
      expect((await experience(token, pair, { coworld_id: mine.coworldId })).status).toBe(422);
    }
  }, 60_000);

  it("open_to_scrimmage, set by its owner alone, lets anyone seat a version anywhere", async () => {
    const own = await mine.addPlayer("Sparring");
    const seat = () =>
      experience(mine.commissioner.token, [own.policyVersionId, bPrivate.policyVersionId], {
        coworld_id: mine.coworldId,
      });
    expect((await seat()).status).toBe(422);
    // Someone else's version reads as unknown to the setting, too.
    const stranger = await setOpen(a.token, bPrivate.policyVersionId, true);
    expect(stranger.status).toBe(404);
    const opened = await setOpen(b.token, bPrivate.policyVersionId, true);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.open_to_scrimmage).toBe(true);
    const seated = await seat();
    expect(seated.status, seated.text).toBe(201);
    expect((await setOpen(b.token, bPrivate.policyVersionId, false)).body.open_to_scrimmage).toBe(
      false,
    );
    expect((await seat()).status).toBe(422);
  }, 60_000);

  it("a play session's opponents follow the same rule", async () => {
    const upload = await uploadGridrushPlayModule(t.url, open, "player_client");
    expect(upload.status).toBe(201);
    const play = (opponent: string) =>
      client(t.url, a.token).post<ValidationBody>("/v2/play-sessions", {
        coworld_id: open.coworldId,
        opponents: [opponent],
        variant_id: "duel-small",
      });
    // A session is no league's: a champion plays there only when its owner opened it.
    for (const other of [bPrivate, hidden, bPublic]) {
      const res = await play(other.policyVersionId);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0]?.loc).toEqual(["body", "opponents", 0]);
    }
    expect((await setOpen(b.token, bPublic.policyVersionId, true)).status).toBe(200);
    try {
      const allowed = await play(bPublic.policyVersionId);
      expect(allowed.status, allowed.text).toBe(201);
    } finally {
      await setOpen(b.token, bPublic.policyVersionId, false);
    }
  }, 60_000);

  it("a tournament's entrants follow the same rule, at creation and on an edit", async () => {
    const own = await open.addPlayer("Host");
    const create = (ids: string[]) =>
      client(t.url, open.commissioner.token).post<ValidationBody & { id: string }>(
        `/v2/leagues/${open.league.id}/tournaments`,
        { name: "Cup", format: "single_elimination", policy_version_ids: ids },
      );
    for (const other of [bPrivate, hidden]) {
      const res = await create([
        own.policyVersionId,
        bPublic.policyVersionId,
        other.policyVersionId,
      ]);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0]?.loc).toEqual(["body", "policy_version_ids", 2]);
    }
    const allowed = await create([own.policyVersionId, bPublic.policyVersionId]);
    expect(allowed.status, allowed.text).toBe(201);
    const edit = await client(t.url, open.commissioner.token).patch<ValidationBody>(
      `/v2/tournaments/${allowed.body.id}`,
      { policy_version_ids: [own.policyVersionId, bPrivate.policyVersionId] },
    );
    expect(edit.status, edit.text).toBe(422);
    expect(edit.body.detail[0]?.loc).toEqual(["body", "policy_version_ids", 1]);
  }, 60_000);
});

describe("an evaluation's episodes and seats", () => {
  let episodeId: string;
  beforeAll(async () => {
    const created = await experience(a.token, [aOwn.policyVersionId, bPublic.policyVersionId]);
    expect(created.status, created.text).toBe(201);
    const episode = created.body.episodes[0];
    if (!episode) throw new Error("the request has no episode");
    episodeId = episode.id;
    // A runner plays it, uploading each seat's log.
    const runner = await scriptedRunner(t, "access-runner");
    for (;;) {
      const jobs = await runner.lease();
      const job = jobs.find((j) => j.episode_request_id === episodeId);
      for (const other of jobs.filter((j) => j !== job)) await runner.complete(other, [0, 0]);
      if (!job) continue;
      for (const seat of [0, 1]) {
        const put = await runner.upload(job, `policy-log-${seat}`, `log of seat ${seat}\n`);
        expect(put).toBe(200);
      }
      expect(await runner.complete(job, [3, 1])).toBe(200);
      break;
    }
  }, 60_000);

  it("a requester reads the logs of the seats it owns, not another's; the seat's owner and admins do", async () => {
    const log = (token: string, seat: number, version: string) =>
      client(t.url, token).get(`/v2/episode-requests/${episodeId}/${version}/policy-logs/${seat}`);
    const mine = await log(a.token, 0, aOwn.policyVersionId);
    expect([mine.status, mine.text]).toEqual([200, "log of seat 0\n"]);
    expect((await log(a.token, 1, bPublic.policyVersionId)).status).toBe(403);
    const owners = await log(b.token, 1, bPublic.policyVersionId);
    expect([owners.status, owners.text]).toEqual([200, "log of seat 1\n"]);
    expect((await log(t.adminToken, 1, bPublic.policyVersionId)).status).toBe(200);
  });

  it("is seen by its requester, its seats' owners and admins; anonymous callers and strangers get nothing", async () => {
    const stranger = await t.newUser();
    const paths = [
      `/v2/episode-requests/${episodeId}`,
      `/v2/episode-requests/${episodeId}/artifacts/spec`,
      `/v2/episode-requests/${episodeId}/artifacts/game-config`,
      `/v2/episode-requests/${episodeId}/artifacts/results`,
      `/v2/episode-requests/${episodeId}/episode-stats`,
      `/v2/episode-requests/${episodeId}/policy-artifacts`,
      `/v2/episode-requests/${episodeId}/bundle`,
    ];
    for (const token of [undefined, stranger.token])
      for (const path of paths)
        expect(
          (await client(t.url, token).get(path)).status,
          `${path} as ${token ? "stranger" : "anonymous"}`,
        ).toBe(404);
    for (const token of [a.token, b.token, t.adminToken])
      expect((await client(t.url, token).get(paths[0] ?? "")).status).toBe(200);

    const listed = async (token: string | undefined, query = "") =>
      (
        await client(t.url, token).get<{ entries: EpisodeRequest[] }>(
          `/v2/episode-requests?limit=200${query}`,
        )
      ).body.entries.map((e) => e.id);
    const changed = async (token: string | undefined) =>
      (
        await client(t.url, token).get<{ entries: EpisodeRequest[] }>(
          "/v2/episode-requests/changes?limit=500",
        )
      ).body.entries.map((e) => e.id);
    for (const token of [undefined, stranger.token]) {
      expect(await listed(token)).not.toContain(episodeId);
      expect(await listed(token, `&policy_version_id=${bPublic.policyVersionId}`)).toEqual([]);
      expect(await changed(token)).not.toContain(episodeId);
    }
    for (const token of [a.token, b.token, t.adminToken]) {
      expect(await listed(token)).toContain(episodeId);
      expect(await changed(token)).toContain(episodeId);
    }
  });
});

describe("listing policy versions", () => {
  const ids = (entries: PolicyVersion[]) => entries.map((v) => v.id);

  it("shows anonymous callers only versions playing in a public league, without how they run", async () => {
    const listed = await client(t.url).get<PolicyVersion[]>("/v2/policy-versions?limit=500");
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).toContain(bPublic.policyVersionId);
    for (const hiddenId of [bPrivate, hidden, aOwn].map((p) => p.policyVersionId))
      expect(ids(listed.body)).not.toContain(hiddenId);
    for (const v of listed.body) {
      expect(v).not.toHaveProperty("run");
      expect(v).not.toHaveProperty("policy_bundle_id");
      expect(v).not.toHaveProperty("container_image_id");
      expect(v).not.toHaveProperty("has_secret_env");
    }
    const searched = await client(t.url).get<{ entries: PolicyVersion[]; total_count: number }>(
      "/stats/policy-versions?limit=500",
    );
    expect(ids(searched.body.entries)).toContain(bPublic.policyVersionId);
    expect(ids(searched.body.entries)).not.toContain(bPrivate.policyVersionId);
    expect(searched.body.total_count).toBe(searched.body.entries.length);
    expect(
      (await client(t.url).get(`/v2/policy-versions/${bPrivate.policyVersionId}`)).status,
    ).toBe(404);
    // Nor does a player's profile name the ids of versions others may not see.
    const profileIds = async (playerId: string, token?: string) =>
      (
        await client(t.url, token).get<{ policies: { versions: { id: string }[] }[] }>(
          `/v2/players/${playerId}/profile`,
        )
      ).body.policies.flatMap((p) => p.versions.map((v) => v.id));
    expect(await profileIds(bPrivate.id)).toEqual([]);
    expect(await profileIds(bPublic.id)).toEqual([bPublic.policyVersionId]);
    expect(await profileIds(bPrivate.id, b.token)).toEqual([bPrivate.policyVersionId]);
  });

  it("shows a user its own versions whole, others' only where it sees them and without their recipe", async () => {
    const asA = await client(t.url, a.token).get<PolicyVersion[]>("/v2/policy-versions?limit=500");
    expect(ids(asA.body)).toEqual(
      expect.arrayContaining([aOwn.policyVersionId, bPublic.policyVersionId]),
    );
    expect(ids(asA.body)).not.toContain(bPrivate.policyVersionId);
    expect(ids(asA.body)).not.toContain(hidden.policyVersionId);
    const own = asA.body.find((v) => v.id === aOwn.policyVersionId);
    expect(own?.run).toEqual(["node", "players/greedy.ts"]);
    expect(own?.has_secret_env).toBe(false);
    const others = await client(t.url, a.token).get<PolicyVersion>(
      `/v2/policy-versions/${bPublic.policyVersionId}`,
    );
    expect(others.status).toBe(200);
    expect(others.body).not.toHaveProperty("run");
    expect(
      (await client(t.url, a.token).get(`/v2/policy-versions/${bPrivate.policyVersionId}`)).status,
    ).toBe(404);
    const byOwner = await client(t.url, b.token).get<PolicyVersion>(
      `/v2/policy-versions/${bPrivate.policyVersionId}`,
    );
    expect(byOwner.body.run).toEqual(["node", "players/greedy.ts"]);
    // The private league's commissioner sees its members.
    const commissioner = await client(t.url, closed.commissioner.token).get<PolicyVersion>(
      `/v2/policy-versions/${hidden.policyVersionId}`,
    );
    expect(commissioner.status).toBe(200);
  });
});

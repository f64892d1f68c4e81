// The access rules in both forms agree: on generated users, leagues (public or not, hidden,
// disabled), divisions, policy versions with their league memberships, episodes (of a league,
// a certification, or an evaluation with seats) and competition events (public or an owner's), the TypeScript predicate and the SQL filter decide
// the same for every caller and every row. Runs on SQLite, and on PostgreSQL when DATABASE_URL
// is set.
import { randomUUID } from "node:crypto";

import fc from "fast-check";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestStore, type TestStore } from "../../testing/test-store.ts";
import { ANONYMOUS, type Identity } from "../auth/identity.ts";
import type { Database } from "../store/schema.ts";
import { canSeeEpisode, episodeFacts, visibleEpisodeIds } from "./episodes.ts";
import { canSeeEvent, visibleEventIds } from "./events.ts";
import {
  canSeeDivision,
  canSeeLeague,
  visibleDivisionIds,
  visibleLeagueIds,
  type LeagueFacts,
} from "./leagues.ts";
import { canSeeVersion, versionFacts, visibleVersionIds } from "./versions.ts";

const USERS = 3;
const NOW = "2026-01-01T00:00:00.000Z";

const world = fc.record({
  leagues: fc.array(
    fc.record({
      public: fc.boolean(),
      hidden: fc.boolean(),
      disabled: fc.boolean(),
      commissioner: fc.nat(USERS - 1),
      divisionHidden: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  versions: fc.array(
    fc.record({ owner: fc.nat(USERS - 1), leagues: fc.uniqueArray(fc.nat(3), { maxLength: 2 }) }),
    { minLength: 1, maxLength: 5 },
  ),
  episodes: fc.array(
    fc.record({
      league: fc.option(fc.nat(3), { nil: null }),
      certification: fc.boolean(),
      requester: fc.nat(USERS - 1),
      seats: fc.array(fc.option(fc.nat(4), { nil: null }), { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  events: fc.array(
    fc.record({
      owner: fc.boolean(),
      user: fc.option(fc.nat(USERS - 1), { nil: null }),
      league: fc.option(fc.nat(3), { nil: null }),
      inDivision: fc.boolean(),
    }),
    { minLength: 1, maxLength: 5 },
  ),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

function identities(userIds: readonly string[]): { name: string; identity: Identity }[] {
  const person = (
    userId: string,
    kind: "user" | "player",
    adminRole: boolean,
    elevated = adminRole,
  ): Identity => ({
    kind,
    subjectId: kind === "user" ? userId : `player-of-${userId}`,
    userId,
    email: `${userId}@example.test`,
    adminRole,
    elevated,
    scopes: [],
    tokenId: randomUUID(),
    budget: { key: userId, kind: "user" },
  });
  return [
    { name: "anonymous", identity: ANONYMOUS },
    { name: "admin", identity: person(randomUUID(), "user", true) },
    { name: "admin, not elevated", identity: person(randomUUID(), "user", true, false) },
    ...userIds.flatMap((id, i) => [
      { name: `user ${i}`, identity: person(id, "user", false) },
      { name: `player of user ${i}`, identity: person(id, "player", false) },
    ]),
  ];
}

/** Writes one generated world and returns its rows as the predicates see them. */
async function insertWorld(db: Kysely<Database>, w: World) {
  const userIds = Array.from({ length: USERS }, () => randomUUID());
  await db
    .insertInto("users")
    .values(
      userIds.map((id) => ({
        id,
        email: `${id}@example.test`,
        password_hash: "x",
        is_admin: 0,
        created_at: NOW,
      })),
    )
    .execute();
  const owner = userIds[0] ?? "";
  const gameId = randomUUID();
  await db
    .insertInto("games")
    .values({
      id: gameId,
      name: `g-${gameId}`,
      owner_user_id: owner,
      coworld_name: null,
      coworld_id: null,
      description: null,
      notes: null,
      created_at: NOW,
    })
    .execute();
  const coworldId = randomUUID();
  await db
    .insertInto("coworlds")
    .values({
      id: coworldId,
      name: `c-${coworldId}`,
      version: "1",
      owner_user_id: owner,
      game_id: gameId,
      manifest: "{}",
      manifest_hash: coworldId,
      bundle_sha256: null,
      size_bytes: 0,
      created_at: NOW,
    })
    .execute();
  const leagues = w.leagues.map((l) => ({
    id: randomUUID(),
    divisionId: randomUUID(),
    divisionHidden: l.divisionHidden ? 1 : 0,
    facts: {
      public: l.public ? 1 : 0,
      hidden: l.hidden ? 1 : 0,
      disabled_at: l.disabled ? NOW : null,
      commissioner_user_id: userIds[l.commissioner] ?? owner,
    } satisfies LeagueFacts,
  }));
  for (const l of leagues) {
    await db
      .insertInto("leagues")
      .values({
        id: l.id,
        name: `l-${l.id}`,
        commissioner_key: l.id,
        game_id: gameId,
        mod_id: null,
        description: null,
        commissioner_config: "{}",
        commissioner_migration_version: "1",
        rounds_paused_at: null,
        settings: "{}",
        filler_policy_version_ids: "[]",
        rules: "{}",
        is_game_of_week: 0,
        notes: null,
        submissions_locked: 0,
        game_version_locked: 0,
        created_at: NOW,
        updated_at: NOW,
        ...l.facts,
      })
      .execute();
    await db
      .insertInto("divisions")
      .values({
        id: l.divisionId,
        league_id: l.id,
        name: "d",
        level: 0,
        type: "competition",
        description: null,
        hidden: l.divisionHidden,
        archived_at: null,
        leaderboard_config: "{}",
        round_schedule: "{}",
        notes: null,
        commissioner_description: "{}",
        created_at: NOW,
      })
      .execute();
  }
  const versions = w.versions.map((v) => ({
    id: randomUUID(),
    owner: userIds[v.owner] ?? owner,
    leagues: v.leagues.flatMap((i) => {
      const league = leagues[i];
      return league ? [league] : [];
    }),
  }));
  for (const v of versions) {
    const policyId = randomUUID();
    await db
      .insertInto("policies")
      .values({ id: policyId, owner_user_id: v.owner, name: `p-${policyId}`, created_at: NOW })
      .execute();
    await db
      .insertInto("policy_versions")
      .values({
        id: v.id,
        policy_id: policyId,
        version: 1,
        container_image_id: null,
        bundle_upload_id: null,
        run: null,
        secret_env_id: null,
        tags: "{}",
        player_id: null,
        open_to_scrimmage: 0,
        created_at: NOW,
      })
      .execute();
    for (const league of v.leagues)
      await db
        .insertInto("league_policy_memberships")
        .values({
          id: randomUUID(),
          league_id: league.id,
          division_id: league.divisionId,
          policy_version_id: v.id,
          player_id: null,
          status: "competing",
          substatus: "active",
          is_champion: 0,
          start_time: NOW,
          end_time: null,
          created_at: NOW,
          submission_id: null,
          retired_reason: null,
        })
        .execute();
  }
  const episodes = w.episodes.map((e) => {
    const league = e.league === null ? undefined : leagues[e.league % leagues.length];
    const seats = e.seats.map((s) => (s === null ? null : (versions[s % versions.length] ?? null)));
    return {
      id: randomUUID(),
      league,
      purpose: league ? "round" : e.certification ? "certification" : "experience",
      requester: userIds[e.requester] ?? owner,
      seats,
    };
  });
  for (const e of episodes) {
    await db
      .insertInto("episode_requests")
      .values({
        id: e.id,
        requester_user_id: e.requester,
        purpose: e.purpose,
        coworld_id: coworldId,
        league_id: e.league?.id ?? null,
        division_id: e.league?.divisionId ?? null,
        round_id: null,
        pool_id: null,
        experience_request_id: null,
        bulk_upload_id: null,
        game_config: "{}",
        seed: 1,
        max_steps: null,
        status: "completed",
        job_id: null,
        error_type: null,
        error: null,
        failed_policy_index: null,
        results: null,
        scores: "[]",
        change_seq: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto("episode_participants")
      .values(
        e.seats.map((v, position) => ({
          episode_request_id: e.id,
          position,
          policy_version_id: v?.id ?? null,
          bundled_player_id: v ? null : "baseline",
          player_id: null,
          display_name: `seat ${position}`,
          human_relay: null,
        })),
      )
      .execute();
  }
  const events = w.events.map((e) => {
    const league = e.league === null ? undefined : leagues[e.league % leagues.length];
    return {
      id: randomUUID(),
      audience: e.owner ? ("owner" as const) : ("public" as const),
      user_id: e.user === null ? null : (userIds[e.user] ?? null),
      league,
      division_id: league && e.inDivision ? league.divisionId : null,
    };
  });
  for (const e of events)
    await db
      .insertInto("competition_events")
      .values({
        id: e.id,
        seq: ++eventSeq,
        event_type: "episode_completed",
        audience: e.audience,
        user_id: e.user_id,
        league_id: e.league?.id ?? null,
        division_id: e.division_id,
        round_id: null,
        episode_request_id: null,
        player_id: null,
        policy_version_id: null,
        experience_request_id: null,
        refs: "{}",
        headline: "generated",
        summary: "",
        payload: "{}",
        created_at: NOW,
      })
      .execute();
  return { userIds, leagues, versions, episodes, events };
}

let eventSeq = 0;

const idsOf = async (q: { execute(): Promise<{ id: string }[]> }) =>
  new Set((await q.execute()).map((r) => r.id));

describe("access rules: the TypeScript predicates and the SQL filters agree", () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await createTestStore();
    await t.store.migrate();
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it("on every caller and every league, division, policy version and episode", async () => {
    const db = t.store.db;
    let decisions = 0;
    const seen = { league: 0, version: 0, episode: 0, event: 0 };
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { userIds, leagues, versions, episodes, events } = await insertWorld(db, w);
        const loadedVersions = await versionFacts(
          db,
          versions.map((v) => v.id),
        );
        const loadedEpisodes = await episodeFacts(
          db,
          episodes.map((e) => ({
            id: e.id,
            league_id: e.league?.id ?? null,
            requester_user_id: e.requester,
            purpose: e.purpose,
          })),
        );
        for (const { name, identity } of identities(userIds)) {
          const sqlLeagues = await idsOf(visibleLeagueIds(db, identity));
          const sqlDivisions = await idsOf(visibleDivisionIds(db, identity));
          const sqlVersions = await idsOf(visibleVersionIds(db, identity));
          const sqlEpisodes = await idsOf(visibleEpisodeIds(db, identity));
          const sqlEvents = await idsOf(visibleEventIds(db, identity));
          for (const e of events) {
            const ts = canSeeEvent(identity, {
              event: {
                audience: e.audience,
                user_id: e.user_id,
                league_id: e.league?.id ?? null,
                division_id: e.division_id,
              },
              league: e.league?.facts,
              division: e.division_id && e.league ? { hidden: e.league.divisionHidden } : undefined,
            });
            expect(sqlEvents.has(e.id), `${JSON.stringify(e)} to ${name}`).toBe(ts);
            if (ts) seen.event++;
            decisions++;
          }
          for (const l of leagues) {
            const ts = canSeeLeague(identity, l.facts);
            expect(sqlLeagues.has(l.id), `league ${JSON.stringify(l.facts)} to ${name}`).toBe(ts);
            expect(
              sqlDivisions.has(l.divisionId),
              `division (hidden ${l.divisionHidden}) of ${JSON.stringify(l.facts)} to ${name}`,
            ).toBe(canSeeDivision(identity, l.facts, { hidden: l.divisionHidden }));
            if (ts) seen.league++;
            decisions += 2;
          }
          for (const v of versions) {
            const ts = canSeeVersion(identity, {
              owner_user_id: v.owner,
              leagues: v.leagues.map((l) => l.facts),
            });
            const loaded = loadedVersions.get(v.id);
            expect(loaded && canSeeVersion(identity, loaded), `loaded version to ${name}`).toBe(ts);
            expect(sqlVersions.has(v.id), `version to ${name}`).toBe(ts);
            if (ts) seen.version++;
            decisions += 2;
          }
          for (const e of episodes) {
            const ts = canSeeEpisode(identity, {
              episode: {
                league_id: e.league?.id ?? null,
                requester_user_id: e.requester,
                purpose: e.purpose,
              },
              league: e.league?.facts,
              seatOwners: e.seats.flatMap((v) => (v ? [v.owner] : [])),
            });
            const loaded = loadedEpisodes.get(e.id);
            expect(loaded && canSeeEpisode(identity, loaded), `loaded episode to ${name}`).toBe(ts);
            expect(sqlEpisodes.has(e.id), `episode to ${name}`).toBe(ts);
            if (ts) seen.episode++;
            decisions += 2;
          }
        }
      }),
      { numRuns: 30 },
    );
    process.stdout.write(
      `access property: ${decisions} decisions agreed (visible: ${JSON.stringify(seen)})\n`,
    );
    // The generated worlds exercise both answers, not only refusals.
    expect(seen.league).toBeGreaterThan(0);
    expect(seen.version).toBeGreaterThan(0);
    expect(seen.episode).toBeGreaterThan(0);
    expect(seen.event).toBeGreaterThan(0);
  }, 300_000);
});

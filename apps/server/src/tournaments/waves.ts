// Playing a running tournament: every ready match goes out together as one wave — one
// experience request whose episodes seat each match's pair (sides alternating per episode) —
// and when that request ends its matches are decided (bracket.ts has the rule) and the next
// wave goes out (propagate.ts), until the final, or the last round robin round, is decided.
import type { Kysely } from "kysely";

import type { CreateExperienceRequest, ExperienceRequestStatus } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import {
  cancelExperienceRequest,
  createExperienceRequest,
} from "../evaluations/experience-requests.ts";
import type { Seat } from "../evaluations/roster.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { ServiceError } from "../shared/errors.ts";
import type {
  Database,
  TournamentEntrantsTable,
  TournamentMatchesTable,
  TournamentsTable,
} from "../store/schema.ts";
import { decideMatch } from "./bracket.ts";
import { nextRoundRobinRound, placeWinner, syncDoubleElimination } from "./propagate.ts";
import { tournamentEnded, tournamentMatchDecided } from "./tournament-events.ts";

type Bus = Pick<EventBus, "publish">;

const ENDED: ExperienceRequestStatus[] = ["completed", "failed", "cancelled"];

/** Waves are requested as the tournament's creator, so the requests are theirs to read. */
export async function actorOf(
  db: Kysely<Database>,
  userId: string,
): Promise<AuthenticatedIdentity> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "is_admin"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const isAdmin = user.is_admin === 1;
  return {
    kind: "user",
    subjectId: user.id,
    userId: user.id,
    email: user.email,
    adminRole: isAdmin,
    // A wave is the server acting for the tournament, not a request: it keeps the creator's role.
    elevated: isAdmin,
    scopes: isAdmin ? ["user", "admin"] : ["user"],
    tokenId: "tournament",
    budget: { key: user.id, kind: "user" },
  };
}

const seatOf = (e: TournamentEntrantsTable): Seat => ({
  policyVersionId: e.policy_version_id,
  playerId: e.player_id,
  displayName: e.display_name,
});

/** Decides the running matches whose wave has ended; true when any was decided. */
async function settleWave(db: Kysely<Database>, bus: Bus, t: TournamentsTable): Promise<boolean> {
  const running = await db
    .selectFrom("tournament_matches")
    .selectAll()
    .where("tournament_id", "=", t.id)
    .where("status", "=", "running")
    .execute();
  const waveIds = [
    ...new Set(running.flatMap((m) => (m.experience_request_id ? [m.experience_request_id] : []))),
  ];
  if (waveIds.length === 0) return false;
  const ended = await db
    .selectFrom("experience_requests")
    .select("id")
    .where("id", "in", waveIds)
    .where("status", "in", ENDED)
    .execute();
  if (ended.length === 0) return false;
  const endedIds = ended.map((r) => r.id);
  const entrants = await db
    .selectFrom("tournament_entrants")
    .selectAll()
    .where("tournament_id", "=", t.id)
    .execute();
  const seedOfVersion = new Map(entrants.map((e) => [e.policy_version_id, e.seed]));
  const episodes = await db
    .selectFrom("episode_requests")
    .select(["id", "status", "scores"])
    .where("experience_request_id", "in", endedIds)
    .execute();
  const participants = episodes.length
    ? await db
        .selectFrom("episode_participants")
        .select(["episode_request_id", "position", "policy_version_id"])
        .where(
          "episode_request_id",
          "in",
          episodes.map((e) => e.id),
        )
        .execute()
    : [];
  // Scores by seed, from each completed episode (an entrant plays one match per wave).
  const scoresBySeed = new Map<number, number[]>();
  for (const episode of episodes) {
    if (episode.status !== "completed") continue;
    const scores = parseJson<number[]>(episode.scores);
    for (const p of participants) {
      if (p.episode_request_id !== episode.id || p.policy_version_id === null) continue;
      const seed = seedOfVersion.get(p.policy_version_id);
      const score = scores[p.position];
      if (seed === undefined || score === undefined) continue;
      scoresBySeed.set(seed, [...(scoresBySeed.get(seed) ?? []), score]);
    }
  }
  const decided = running.filter(
    (m): m is TournamentMatchesTable & { seed_a: number; seed_b: number } =>
      m.experience_request_id !== null &&
      endedIds.includes(m.experience_request_id) &&
      m.seed_a !== null &&
      m.seed_b !== null,
  );
  if (decided.length === 0) return false;
  await withEvents(db, bus, async (trx, emit) => {
    for (const m of decided) {
      const a = scoresBySeed.get(m.seed_a) ?? [];
      const b = scoresBySeed.get(m.seed_b) ?? [];
      const outcome = decideMatch(m.seed_a, m.seed_b, a, b);
      const res = await trx
        .updateTable("tournament_matches")
        .set({
          status: outcome.status,
          winner_seed: outcome.winnerSeed,
          decided_by: outcome.decidedBy,
          score_a: outcome.scoreA,
          score_b: outcome.scoreB,
          episodes_completed: Math.min(a.length, b.length),
          updated_at: nowIso(),
        })
        .where("id", "=", m.id)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      await tournamentMatchDecided(
        trx,
        emit,
        t,
        await trx
          .selectFrom("tournament_matches")
          .selectAll()
          .where("id", "=", m.id)
          .executeTakeFirstOrThrow(),
      );
      if (
        t.format === "single_elimination" &&
        (await placeWinner(trx, t.id, m.round, m.position, outcome.winnerSeed))
      ) {
        await tournamentEnded(trx, emit, t, "completed", { winnerSeed: outcome.winnerSeed });
      }
    }
    if (t.format === "double_elimination") {
      const champion = await syncDoubleElimination(trx, t.id);
      if (champion !== null)
        await tournamentEnded(trx, emit, t, "completed", { winnerSeed: champion });
    }
  });
  return true;
}

async function fail(
  db: Kysely<Database>,
  bus: Bus,
  t: TournamentsTable,
  error: string,
): Promise<void> {
  const now = nowIso();
  await withEvents(db, bus, async (trx, emit) => {
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "failed", error, completed_at: now, updated_at: now })
      .where("id", "=", t.id)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await tournamentEnded(trx, emit, t, "failed", { error });
  });
}

/** Sends every ready match out as one experience request; the wave counter is compared and set,
 * so a second replica advancing at the same moment withdraws its request instead. */
async function launchWave(
  db: Kysely<Database>,
  bus: Bus,
  t: TournamentsTable,
): Promise<string | null> {
  const ready = await db
    .selectFrom("tournament_matches")
    .selectAll()
    .where("tournament_id", "=", t.id)
    .where("status", "=", "ready")
    .orderBy("round")
    .orderBy("position")
    .execute();
  if (ready.length === 0) return null;
  const entrants = new Map(
    (
      await db
        .selectFrom("tournament_entrants")
        .selectAll()
        .where("tournament_id", "=", t.id)
        .execute()
    ).map((e) => [e.seed, e]),
  );
  const episodeSeats: Seat[][] = [];
  for (const m of ready) {
    const a = m.seed_a === null ? undefined : entrants.get(m.seed_a);
    const b = m.seed_b === null ? undefined : entrants.get(m.seed_b);
    if (!a || !b) throw new Error(`match ${m.id} is ready without two entrants`);
    for (let k = 0; k < t.episodes_per_match; k++)
      episodeSeats.push(k % 2 === 0 ? [seatOf(a), seatOf(b)] : [seatOf(b), seatOf(a)]);
  }
  const first = episodeSeats[0] ?? [];
  const body: CreateExperienceRequest = {
    target: { league_id: t.league_id },
    roster: first.map((seat) => ({ player: { policy_ref: seat.policyVersionId } })),
    num_episodes: episodeSeats.length,
    notes: `tournament ${t.id} (${t.name}) wave ${t.wave + 1}: ${ready.length} match(es)`,
    ...(t.variant_id ? { variant_id: t.variant_id } : {}),
    ...(t.game_config_overrides
      ? { game_config_overrides: parseJson<Record<string, unknown>>(t.game_config_overrides) }
      : {}),
  };
  const actor = await actorOf(db, t.created_by_user_id);
  // The entrants were checked as seatable by the tournament's creator when they were entered.
  const entered = new Set([...entrants.values()].map((e) => e.policy_version_id));
  const request = await createExperienceRequest(db, bus, actor, body, episodeSeats, entered);
  const claimed = await db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("tournaments")
      .set({ wave: t.wave + 1, updated_at: nowIso() })
      .where("id", "=", t.id)
      .where("wave", "=", t.wave)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable("tournament_matches")
      .set({ status: "running", experience_request_id: request.id, updated_at: nowIso() })
      .where(
        "id",
        "in",
        ready.map((m) => m.id),
      )
      .where("status", "=", "ready")
      .execute();
    return true;
  });
  if (!claimed) {
    await cancelExperienceRequest(db, bus, actor, request.id).catch((error: unknown) => {
      // A 409: it has already ended, so there is nothing left to cancel.
      if (!(error instanceof ServiceError && error.status === 409)) throw error;
    });
    return null;
  }
  return request.id;
}

/**
 * One step of a running tournament, safe to repeat: decide what an ended wave played, then
 * start the next wave when nothing is playing. A wave that ended before it was recorded (its
 * episodes all failed at once) is caught by going round again.
 */
export async function advance(db: Kysely<Database>, bus: Bus, tournamentId: string): Promise<void> {
  for (let guard = 0; guard < 100; guard++) {
    const t = await db
      .selectFrom("tournaments")
      .selectAll()
      .where("id", "=", tournamentId)
      .executeTakeFirst();
    if (!t || t.status !== "running") return;
    await settleWave(db, bus, t);
    const now = await db
      .selectFrom("tournaments")
      .selectAll()
      .where("id", "=", tournamentId)
      .executeTakeFirstOrThrow();
    if (now.status !== "running") return;
    const playing = await db
      .selectFrom("tournament_matches")
      .select("id")
      .where("tournament_id", "=", t.id)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (playing) {
      const wave = await db
        .selectFrom("tournament_matches")
        .select("experience_request_id")
        .where("id", "=", playing.id)
        .executeTakeFirstOrThrow();
      const request = wave.experience_request_id
        ? await db
            .selectFrom("experience_requests")
            .select("status")
            .where("id", "=", wave.experience_request_id)
            .executeTakeFirst()
        : undefined;
      if (request && ENDED.includes(request.status)) continue;
      return;
    }
    if (now.format === "round_robin") {
      await nextRoundRobinRound(db, bus, now.id);
      const after = await db
        .selectFrom("tournaments")
        .select("status")
        .where("id", "=", tournamentId)
        .executeTakeFirstOrThrow();
      if (after.status !== "running") return;
    }
    let launched: string | null;
    try {
      launched = await launchWave(db, bus, now);
    } catch (error) {
      // The league's game, a policy or the runners' budget refused the wave: the tournament
      // cannot go on by itself; the reason is kept on it.
      const reason = error instanceof Error ? error.message : String(error);
      await fail(db, bus, now, `wave ${now.wave + 1} could not start: ${reason}`);
      return;
    }
    if (launched === null) {
      const ready = await db
        .selectFrom("tournament_matches")
        .select("id")
        .where("tournament_id", "=", t.id)
        .where("status", "in", ["ready", "running"])
        .executeTakeFirst();
      if (!ready) await fail(db, bus, now, "no match is left to play, yet the final has no winner");
      return;
    }
  }
}

// Moving a tournament on once matches are decided. Single elimination: the winner goes into its
// slot of the next round (the match is ready once both slots are filled), or, after the final,
// onto the tournament as its winner. Round robin: the next round becomes ready when nothing is
// left to play, and after the last round the most matches won takes the tournament. Double
// elimination: the draw is resolved again against every decided match (double-elimination.ts),
// which readies the matches whose entrants are now known and plays out the byes.
import type { Kysely, Transaction } from "kysely";

import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { nextSlot, roundRobinWinner } from "./bracket.ts";
import {
  drawDoubleElimination,
  matchKey,
  resolveDoubleElimination,
  type DecidedMatch,
} from "./double-elimination.ts";
import { tournamentEnded } from "./tournament-events.ts";

/** Moves a match's winner on; true when that was the final and the tournament is now completed. */
export async function placeWinner(
  trx: Transaction<Database>,
  tournamentId: string,
  round: number,
  position: number,
  seed: number,
): Promise<boolean> {
  const slot = nextSlot(round, position);
  const now = nowIso();
  const next = await trx
    .selectFrom("tournament_matches")
    .selectAll()
    .where("tournament_id", "=", tournamentId)
    .where("round", "=", slot.round)
    .where("position", "=", slot.position)
    .executeTakeFirst();
  if (!next) {
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "completed", winner_seed: seed, completed_at: now, updated_at: now })
      .where("id", "=", tournamentId)
      .where("status", "in", ["locked", "running"])
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const seedA = slot.side === "a" ? seed : next.seed_a;
  const seedB = slot.side === "b" ? seed : next.seed_b;
  const status =
    seedA !== null && seedB !== null && next.status === "pending" ? "ready" : next.status;
  await trx
    .updateTable("tournament_matches")
    .set({ seed_a: seedA, seed_b: seedB, status, updated_at: now })
    .where("id", "=", next.id)
    .execute();
  return false;
}

/** Brings a double-elimination bracket up to date with its decided matches; the champion's seed
 * when the grand final is decided and the tournament is now completed, else null. */
export async function syncDoubleElimination(
  trx: Transaction<Database>,
  tournamentId: string,
): Promise<number | null> {
  const entrants = Number(
    (
      await trx
        .selectFrom("tournament_entrants")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("tournament_id", "=", tournamentId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await trx
    .selectFrom("tournament_matches")
    .selectAll()
    .where("tournament_id", "=", tournamentId)
    .execute();
  const byKey = new Map(
    rows.map((m) => [m.bracket === "main" ? "" : matchKey(m.bracket, m.round, m.position), m]),
  );
  const decided = new Map<string, DecidedMatch>();
  for (const [key, m] of byKey) {
    if (m.status !== "completed" && m.status !== "void") continue;
    const loser = m.winner_seed === null ? null : m.winner_seed === m.seed_a ? m.seed_b : m.seed_a;
    decided.set(key, { winner: m.winner_seed, loser });
  }
  const { ready, byes, waiting, champion } = resolveDoubleElimination(
    drawDoubleElimination(entrants),
    decided,
  );
  const now = nowIso();
  for (const bye of byes) {
    const m = byKey.get(bye.key);
    if (!m) throw new Error(`tournament ${tournamentId} has no match ${bye.key}`);
    await trx
      .updateTable("tournament_matches")
      .set({
        status: "completed",
        seed_a: bye.seedA,
        seed_b: bye.seedB,
        winner_seed: bye.winner,
        decided_by: "bye",
        updated_at: now,
      })
      .where("id", "=", m.id)
      .where("status", "=", "pending")
      .execute();
  }
  for (const r of ready) {
    const m = byKey.get(r.key);
    if (!m) throw new Error(`tournament ${tournamentId} has no match ${r.key}`);
    await trx
      .updateTable("tournament_matches")
      .set({ status: "ready", seed_a: r.seedA, seed_b: r.seedB, updated_at: now })
      .where("id", "=", m.id)
      .where("status", "=", "pending")
      .execute();
  }
  for (const w of waiting) {
    const m = byKey.get(w.key);
    if (m && (m.seed_a !== w.seedA || m.seed_b !== w.seedB))
      await trx
        .updateTable("tournament_matches")
        .set({ seed_a: w.seedA, seed_b: w.seedB, updated_at: now })
        .where("id", "=", m.id)
        .where("status", "=", "pending")
        .execute();
  }
  if (champion === null) return null;
  const res = await trx
    .updateTable("tournaments")
    .set({ status: "completed", winner_seed: champion, completed_at: now, updated_at: now })
    .where("id", "=", tournamentId)
    .where("status", "in", ["locked", "running"])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? champion : null;
}

/** Round robin with nothing ready or running: the lowest pending round becomes ready, or, when
 * none is left, the tournament completes with its winner. */
export async function nextRoundRobinRound(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  tournamentId: string,
): Promise<void> {
  await withEvents(db, bus, async (trx, emit) => {
    const matches = await trx
      .selectFrom("tournament_matches")
      .select(["round", "status", "winner_seed"])
      .where("tournament_id", "=", tournamentId)
      .execute();
    if (matches.some((m) => m.status === "ready" || m.status === "running")) return;
    const pending = matches.filter((m) => m.status === "pending").map((m) => m.round);
    const now = nowIso();
    if (pending.length > 0) {
      await trx
        .updateTable("tournament_matches")
        .set({ status: "ready", updated_at: now })
        .where("tournament_id", "=", tournamentId)
        .where("round", "=", Math.min(...pending))
        .where("status", "=", "pending")
        .execute();
      return;
    }
    const winner = roundRobinWinner(
      matches.flatMap((m) => (m.winner_seed === null ? [] : [m.winner_seed])),
    );
    if (winner === null) return;
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "completed", winner_seed: winner, completed_at: now, updated_at: now })
      .where("id", "=", tournamentId)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    const t = await trx
      .selectFrom("tournaments")
      .selectAll()
      .where("id", "=", tournamentId)
      .executeTakeFirstOrThrow();
    await tournamentEnded(trx, emit, t, "completed", { winnerSeed: winner });
  });
}

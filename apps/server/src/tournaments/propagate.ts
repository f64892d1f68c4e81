// Moving a tournament on once matches are decided. Single elimination: the winner goes into its
// slot of the next round (the match is ready once both slots are filled), or, after the final,
// onto the tournament as its winner. Round robin: the next round becomes ready when nothing is
// left to play, and after the last round the most matches won takes the tournament.
import type { Kysely, Transaction } from "kysely";
import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { nextSlot, roundRobinWinner } from "./bracket.ts";
import { tournamentEnded } from "./tournament-events.ts";

/** Moves a match's winner on; true when that was the final and the tournament is now completed. */
export async function placeWinner(trx: Transaction<Database>, tournamentId: string, round: number, position: number, seed: number): Promise<boolean> {
  const slot = nextSlot(round, position);
  const now = nowIso();
  const next = await trx.selectFrom("tournament_matches").selectAll().where("tournament_id", "=", tournamentId).where("round", "=", slot.round).where("position", "=", slot.position).executeTakeFirst();
  if (!next) {
    const res = await trx.updateTable("tournaments").set({ status: "completed", winner_seed: seed, completed_at: now, updated_at: now }).where("id", "=", tournamentId).where("status", "in", ["locked", "running"]).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const seedA = slot.side === "a" ? seed : next.seed_a;
  const seedB = slot.side === "b" ? seed : next.seed_b;
  const status = seedA !== null && seedB !== null && next.status === "pending" ? "ready" : next.status;
  await trx.updateTable("tournament_matches").set({ seed_a: seedA, seed_b: seedB, status, updated_at: now }).where("id", "=", next.id).execute();
  return false;
}

/** Round robin with nothing ready or running: the lowest pending round becomes ready, or, when
 * none is left, the tournament completes with its winner. */
export async function nextRoundRobinRound(db: Kysely<Database>, bus: Pick<EventBus, "publish">, tournamentId: string): Promise<void> {
  await withEvents(db, bus, async (trx, emit) => {
    const matches = await trx.selectFrom("tournament_matches").select(["round", "status", "winner_seed"]).where("tournament_id", "=", tournamentId).execute();
    if (matches.some((m) => m.status === "ready" || m.status === "running")) return;
    const pending = matches.filter((m) => m.status === "pending").map((m) => m.round);
    const now = nowIso();
    if (pending.length > 0) {
      await trx.updateTable("tournament_matches").set({ status: "ready", updated_at: now }).where("tournament_id", "=", tournamentId).where("round", "=", Math.min(...pending)).where("status", "=", "pending").execute();
      return;
    }
    const winner = roundRobinWinner(matches.flatMap((m) => (m.winner_seed === null ? [] : [m.winner_seed])));
    if (winner === null) return;
    const res = await trx.updateTable("tournaments").set({ status: "completed", winner_seed: winner, completed_at: now, updated_at: now }).where("id", "=", tournamentId).where("status", "=", "running").executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return;
    const t = await trx.selectFrom("tournaments").selectAll().where("id", "=", tournamentId).executeTakeFirstOrThrow();
    await tournamentEnded(trx, emit, t, "completed", { winnerSeed: winner });
  });
}

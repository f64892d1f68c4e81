// Moving a decided match's winner on: into its slot of the next round (the match is ready once
// both of its slots are filled), or, after the final, onto the tournament as its winner.
import type { Transaction } from "kysely";
import { nowIso } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { nextSlot } from "./bracket.ts";

export async function placeWinner(trx: Transaction<Database>, tournamentId: string, round: number, position: number, seed: number): Promise<void> {
  const slot = nextSlot(round, position);
  const now = nowIso();
  const next = await trx.selectFrom("tournament_matches").selectAll().where("tournament_id", "=", tournamentId).where("round", "=", slot.round).where("position", "=", slot.position).executeTakeFirst();
  if (!next) {
    await trx.updateTable("tournaments").set({ status: "completed", winner_seed: seed, completed_at: now, updated_at: now }).where("id", "=", tournamentId).where("status", "in", ["locked", "running"]).execute();
    return;
  }
  const seedA = slot.side === "a" ? seed : next.seed_a;
  const seedB = slot.side === "b" ? seed : next.seed_b;
  const status = seedA !== null && seedB !== null && next.status === "pending" ? "ready" : next.status;
  await trx.updateTable("tournament_matches").set({ seed_a: seedA, seed_b: seedB, status, updated_at: now }).where("id", "=", next.id).execute();
}

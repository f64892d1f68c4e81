// The promotion rule when a boundary has gone quiet. The rule counts the upper division's
// rounds, and a settled division plays none, so a lower division's leader could wait for good
// below a settled upper division. When both divisions of a boundary are settled, the rule runs
// once on their settled standings instead; the divisions it changes reopen, play until they
// settle, and then the boundary stays quiet until a new entrant or champion (in either division
// or any below, whence a newcomer can climb) allows one more such move. One move per change
// from outside: the league cannot play forever on its own moves.
import type { Kysely, Transaction } from "kysely";

import type { EventBus } from "../events/bus.ts";
import { withEvents } from "../events/record.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database, DivisionsTable } from "../store/schema.ts";
import { competitionDivisions } from "./divisions.ts";
import { ladderOf } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { moveAcross } from "./promotion-moves.ts";
import { storedStandingRows } from "./standings-read.ts";
import { refreshStandings } from "./standings-write.ts";

/** What changes a boundary from outside: a player entering, leaving or changing champion. */
const OUTSIDE_CHANGES = ["submission_placed", "champion_changed", "membership_retired"] as const;

type Reader = Kysely<Database> | Transaction<Database>;

/**
 * Whether the boundary below `upper` may make its settled move: no settled move across it since
 * the newest entrant, retirement or champion change in `upper` or any division below it.
 */
export async function settledMoveAllowed(
  db: Reader,
  upper: DivisionsTable,
  lower: DivisionsTable,
  ladder: readonly DivisionsTable[],
): Promise<boolean> {
  const reach = ladder.filter((d) => d.level >= upper.level).map((d) => d.id);
  const change = await db
    .selectFrom("competition_events")
    .select("seq")
    .where("division_id", "in", reach)
    .where("event_type", "in", [...OUTSIDE_CHANGES])
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  const moves = await db
    .selectFrom("competition_events")
    .select("payload")
    .where("division_id", "in", [upper.id, lower.id])
    .where("event_type", "in", ["player_promoted", "player_relegated"])
    .where("seq", ">", change?.seq ?? 0)
    .execute();
  const boundary = new Set([upper.id, lower.id]);
  return !moves.some((m) => {
    const p = parseJson<{ rule?: string; from_division_id?: string; to_division_id?: string }>(
      m.payload,
    );
    return (
      p.rule === "settled" &&
      boundary.has(p.from_division_id ?? "") &&
      boundary.has(p.to_division_id ?? "")
    );
  });
}

/** True when the division's stored standings have rows and every one is settled. */
async function everyRowSettled(db: Reader, divisionId: string): Promise<boolean> {
  const rows = await storedStandingRows(db, divisionId);
  return rows.length > 0 && rows.every((r) => r.settled === true);
}

async function hasActiveRound(db: Reader, divisionIds: readonly string[]): Promise<boolean> {
  const active = await db
    .selectFrom("rounds")
    .select("id")
    .where("division_id", "in", [...divisionIds])
    .where("active", "=", 1)
    .executeTakeFirst();
  return active !== undefined;
}

/**
 * Makes the settled move of each boundary whose two divisions are in `settled` (the scheduler
 * found every rank of each settled), at most one boundary per league per call. Returns the ids
 * of the divisions whose members changed.
 */
export async function promoteSettled(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  settled: ReadonlySet<string>,
): Promise<string[]> {
  if (settled.size < 2) return [];
  const leagues = await db
    .selectFrom("divisions")
    .select("league_id")
    .distinct()
    .where("id", "in", [...settled])
    .execute();
  const moved: string[] = [];
  for (const { league_id: leagueId } of leagues) {
    const ladder = await competitionDivisions(db, leagueId).execute();
    for (const [i, upper] of ladder.entries()) {
      const lower = ladder[i + 1];
      if (!lower || !settled.has(upper.id) || !settled.has(lower.id)) continue;
      if (!(await settledMoveAllowed(db, upper, lower, ladder))) continue;
      const changed = await moveSettledBoundary(db, bus, leagueId, upper.id, lower.id);
      if (changed.length > 0) {
        moved.push(...changed);
        break;
      }
    }
  }
  return moved;
}

/** Under the league lock, checks again (another replica may have moved first) and moves. */
async function moveSettledBoundary(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  leagueId: string,
  upperId: string,
  lowerId: string,
): Promise<string[]> {
  return withEvents(db, bus, async (trx, emit) => {
    const league = await lockLeague(trx, leagueId);
    if (!league || league.disabled_at !== null || league.rounds_paused_at !== null) return [];
    const ladder = ladderOf(league);
    if (!ladder.ok) return [];
    const settings = ladder.settings;
    if (settings.promotion.promote === 0 && settings.promotion.relegate === 0) return [];
    const divisions = await competitionDivisions(trx, leagueId).execute();
    const at = divisions.findIndex((d) => d.id === upperId);
    const upper = divisions[at];
    const lower = divisions[at + 1];
    if (!upper || lower?.id !== lowerId) return [];
    if (await hasActiveRound(trx, [upper.id, lower.id])) return [];
    if (!(await everyRowSettled(trx, upper.id)) || !(await everyRowSettled(trx, lower.id)))
      return [];
    if (!(await settledMoveAllowed(trx, upper, lower, divisions))) return [];
    const changed = await moveAcross(trx, emit, league, settings, upper, lower, "settled");
    for (const d of changed) await refreshStandings(trx, league, settings, d, null, emit);
    return changed.map((d) => d.id);
  });
}

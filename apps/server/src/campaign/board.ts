// The campaign board in the store: created on first read at the league's geometry, caught
// up with the rounds settled since (territory.ts holds the rule), and re-carved by
// migrate-board.
import { randomUUID } from "node:crypto";

import type { Kysely, Transaction } from "kysely";

import type {
  BodyOf,
  CampaignBoard,
  CampaignHistoryEntry,
  CampaignTerritory,
  MigrateBoardReport,
} from "@gauntlet/core";

import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { getCommissionedLeagueRow, getVisibleLeagueRow } from "../leagues/leagues.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import type {
  CampaignBoardsTable,
  CampaignHistoryTable,
  Database,
  LeaguesTable,
} from "../store/schema.ts";
import {
  captureTarget,
  geometryOf,
  mapPoint,
  recarve,
  territory,
  type BoardCell,
} from "./territory.ts";

type Db = Kysely<Database> | Transaction<Database>;

async function ensureBoard(db: Db, league: LeaguesTable): Promise<CampaignBoardsTable> {
  const existing = await db
    .selectFrom("campaign_boards")
    .selectAll()
    .where("league_id", "=", league.id)
    .executeTakeFirst();
  if (existing) return existing;
  const { width, height } = geometryOf(parseJson<Record<string, unknown>>(league.settings));
  const now = nowIso();
  const board: CampaignBoardsTable = {
    league_id: league.id,
    width,
    height,
    created_at: now,
    updated_at: now,
  };
  const inserted = await db
    .insertInto("campaign_boards")
    .values(board)
    .onConflict((oc) => oc.column("league_id").doNothing())
    .returning("league_id")
    .executeTakeFirst();
  if (inserted) {
    const cells = [];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        cells.push({
          league_id: league.id,
          x,
          y,
          owner_player_id: null,
          captured_round_id: null,
          captured_at: null,
        });
    await db.insertInto("campaign_cells").values(cells).execute();
    return board;
  }
  return db
    .selectFrom("campaign_boards")
    .selectAll()
    .where("league_id", "=", league.id)
    .executeTakeFirstOrThrow();
}

async function readCells(db: Db, leagueId: string) {
  return db
    .selectFrom("campaign_cells")
    .selectAll()
    .where("league_id", "=", leagueId)
    .orderBy("y")
    .orderBy("x")
    .execute();
}

/** Apply every completed round of the league not yet on the board, oldest first. The history
 * row is written first and its unique (league, round) index decides who applies a round. */
async function catchUp(trx: Transaction<Database>, leagueId: string): Promise<void> {
  const pending = await trx
    .selectFrom("rounds")
    .leftJoin("campaign_history", (j) =>
      j
        .onRef("campaign_history.round_id", "=", "rounds.id")
        .on("campaign_history.league_id", "=", leagueId),
    )
    .select(["rounds.id", "rounds.completed_at"])
    .where("rounds.league_id", "=", leagueId)
    .where("rounds.status", "=", "completed")
    .where("campaign_history.id", "is", null)
    .orderBy("rounds.completed_at")
    .orderBy("rounds.id")
    .execute();
  for (const round of pending) {
    const winner = await trx
      .selectFrom("round_results")
      .select("player_id")
      .where("round_id", "=", round.id)
      .orderBy("rank")
      .orderBy("score", "desc")
      .orderBy("player_id")
      .executeTakeFirst();
    if (!winner) continue;
    const target = captureTarget(await readCells(trx, leagueId), winner.player_id);
    const now = nowIso();
    const entry: CampaignHistoryTable = {
      id: `cmh_${randomUUID()}`,
      league_id: leagueId,
      round_id: round.id,
      player_id: winner.player_id,
      x: target?.x ?? null,
      y: target?.y ?? null,
      previous_owner_player_id: target?.owner_player_id ?? null,
      created_at: now,
    };
    const inserted = await trx
      .insertInto("campaign_history")
      .values(entry)
      .onConflict((oc) => oc.columns(["league_id", "round_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted || !target) continue;
    await trx
      .updateTable("campaign_cells")
      .set({ owner_player_id: winner.player_id, captured_round_id: round.id, captured_at: now })
      .where("league_id", "=", leagueId)
      .where("x", "=", target.x)
      .where("y", "=", target.y)
      .execute();
    await trx
      .updateTable("campaign_boards")
      .set({ updated_at: now })
      .where("league_id", "=", leagueId)
      .execute();
  }
}

/** Newest first in the order rounds were applied (by completion), not by when a reader wrote
 * them: one catch-up writes several entries within the same millisecond. */
async function readHistory(db: Db, leagueId: string): Promise<CampaignHistoryEntry[]> {
  const rows = await db
    .selectFrom("campaign_history as h")
    .innerJoin("rounds as r", "r.id", "h.round_id")
    .selectAll("h")
    .where("h.league_id", "=", leagueId)
    .orderBy("r.completed_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map(({ league_id: _league, ...entry }) => entry);
}

/** Cells held per player with the players' names, most first, so that a reader needs no
 * second lookup to show who holds what. */
async function territoryOf(db: Db, cells: readonly BoardCell[]): Promise<CampaignTerritory[]> {
  const held = territory(cells);
  const ids = Object.keys(held);
  const names = new Map<string, string>();
  if (ids.length > 0)
    for (const p of await db
      .selectFrom("players")
      .select(["id", "name"])
      .where("id", "in", ids)
      .execute())
      names.set(p.id, p.name);
  return ids
    .map((id) => ({ player_id: id, player_name: names.get(id) ?? null, cells: held[id] ?? 0 }))
    .sort(
      (a, b) =>
        b.cells - a.cells ||
        byName(a.player_name, b.player_name) ||
        a.player_id.localeCompare(b.player_id),
    );
}

/** Named players before players that no longer exist. */
function byName(a: string | null, b: string | null): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  return a.localeCompare(b);
}

/** The board as the caller may see it (404 for a league they cannot see). */
export async function getCampaignBoard(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<CampaignBoard> {
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  return db.transaction().execute(async (trx) => {
    await ensureBoard(trx, league);
    await catchUp(trx, league.id);
    const board = await trx
      .selectFrom("campaign_boards")
      .selectAll()
      .where("league_id", "=", league.id)
      .executeTakeFirstOrThrow();
    const cells = (await readCells(trx, league.id)).map(({ league_id: _league, ...cell }) => cell);
    return {
      league_id: league.id,
      geometry: { width: board.width, height: board.height },
      cells,
      territory: await territoryOf(trx, cells),
      history: await readHistory(trx, league.id),
      updated_at: board.updated_at,
    };
  });
}

export async function getCampaignHistory(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<CampaignHistoryEntry[]> {
  return (await getCampaignBoard(db, identity, leagueId)).history;
}

/**
 * Re-carve the board to the geometry the league's settings name now. Each new cell
 * takes the owner covering most of it (territory.ts `recarve`), a cell keeps its capture
 * record when its owner is unchanged, and every history entry moves to the new cell holding
 * its old cell's centre. A dry run answers the same report inside a transaction that is
 * rolled back, so it provably changes nothing.
 */
export async function migrateCampaignBoard(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  body: BodyOf<"migrateCampaignBoard">,
): Promise<MigrateBoardReport> {
  const league = await getCommissionedLeagueRow(db, identity, leagueId);
  const dryRun = body.dry_run;
  let report: MigrateBoardReport | undefined;
  const rollback = new Error("dry run: roll back");
  try {
    await db.transaction().execute(async (trx) => {
      const board = await ensureBoard(trx, league);
      await catchUp(trx, league.id);
      const from = { width: board.width, height: board.height };
      const to = geometryOf(parseJson<Record<string, unknown>>(league.settings));
      const oldCells = await readCells(trx, league.id);
      const newCells: BoardCell[] = recarve(from, oldCells, to);
      const history = await trx
        .selectFrom("campaign_history")
        .selectAll()
        .where("league_id", "=", league.id)
        .execute();
      report = {
        league_id: league.id,
        dry_run: dryRun,
        from,
        to,
        cells_before: oldCells.length,
        cells_after: newCells.length,
        territory_before: territory(oldCells),
        territory_after: territory(newCells),
        history_entries: history.length,
        applied: !dryRun,
      };
      // The real work runs in the dry run too, so the preview is what the migration does.
      const kept = new Map(oldCells.map((c) => [`${c.x},${c.y}`, c]));
      await trx.deleteFrom("campaign_cells").where("league_id", "=", league.id).execute();
      if (newCells.length > 0) {
        await trx
          .insertInto("campaign_cells")
          .values(
            newCells.map((c) => {
              const centre = mapPoint(to, from, c.x, c.y);
              const old = kept.get(`${centre.x},${centre.y}`);
              const same =
                old !== undefined &&
                old.owner_player_id === c.owner_player_id &&
                c.owner_player_id !== null;
              return {
                league_id: league.id,
                x: c.x,
                y: c.y,
                owner_player_id: c.owner_player_id,
                captured_round_id: same ? old.captured_round_id : null,
                captured_at: same ? old.captured_at : null,
              };
            }),
          )
          .execute();
      }
      for (const entry of history) {
        if (entry.x === null || entry.y === null) continue;
        const moved = mapPoint(from, to, entry.x, entry.y);
        await trx.updateTable("campaign_history").set(moved).where("id", "=", entry.id).execute();
      }
      await trx
        .updateTable("campaign_boards")
        .set({ width: to.width, height: to.height, updated_at: nowIso() })
        .where("league_id", "=", league.id)
        .execute();
      if (dryRun) throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  if (!report) throw new Error("unreachable: the transaction writes the report before it ends");
  return report;
}

// Rounds, their results and pools, as the HTTP reads serve them (visibility of their division).
import type { Kysely } from "kysely";

import type { Pool, QueryOf, Round, RoundDetail } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { isCommissioner, visibleDivisionIds } from "../access/leagues.ts";
import type { Identity } from "../auth/identity.ts";
import { DEFAULT_QUEUE_SHARES, type QueueShares } from "../episodes/queue-shares.ts";
import { parseJson } from "../shared/clock.ts";
import { ifNotFound, notFound } from "../shared/errors.ts";
import type { Database, PoolsTable, RoundsTable } from "../store/schema.ts";
import { divisionsById, must, playerRefs, policyVersionRefs } from "./refs.ts";
import { roundWaiting } from "./round-waiting.ts";
import { visibleDivision } from "./visibility.ts";

export async function roundViews(
  db: Kysely<Database>,
  rows: readonly RoundsTable[],
  /** The work queue's shares, for where a waiting round stands (the defaults when not given). */
  shares: QueueShares = DEFAULT_QUEUE_SHARES,
): Promise<Round[]> {
  const divisions = await divisionsById(
    db,
    rows.map((r) => r.division_id),
  );
  // Only a running round can wait; the reads of finished ones stay one query.
  const waiting = new Map(
    await Promise.all(
      rows
        .filter((r) => r.status === "running")
        .map(async (r) => [r.id, await roundWaiting(db, r.id, shares)] as const),
    ),
  );
  return rows.map((r) => ({
    id: r.id,
    round_number: r.round_number,
    commissioner_key: r.commissioner_key,
    commissioner:
      r.commissioner_runnable_id != null
        ? {
            kind: "coworld" as const,
            runnable_id: r.commissioner_runnable_id,
            coworld_id: r.coworld_id,
            coworld_version: r.commissioner_version ?? null,
          }
        : { kind: "builtin" as const, key: r.commissioner_key },
    execution_backend: r.execution_backend,
    round_config: parseJson<Record<string, unknown>>(r.round_config),
    round_display: parseJson<Record<string, unknown>>(r.round_display),
    status: r.status,
    error: r.error,
    started_at: r.started_at,
    completed_at: r.completed_at,
    division: must(divisions, r.division_id, "division"),
    league_id: r.league_id,
    created_at: r.created_at,
    waiting: waiting.get(r.id) ?? null,
  }));
}

type RoundFilter = QueryOf<"listRounds">;

export async function listRounds(
  db: Kysely<Database>,
  identity: Identity,
  filter: RoundFilter,
  shares: QueueShares = DEFAULT_QUEUE_SHARES,
) {
  let q = db.selectFrom("rounds");
  if (filter.league_id) q = q.where("league_id", "=", filter.league_id);
  if (filter.division_id) q = q.where("division_id", "=", filter.division_id);
  if (filter.status) q = q.where("status", "=", filter.status);
  if (filter.division_type)
    q = q.where(
      "division_id",
      "in",
      db.selectFrom("divisions").select("id").where("type", "=", filter.division_type),
    );
  if (!actsAsAdmin(identity)) q = q.where("division_id", "in", visibleDivisionIds(db, identity));
  const total = await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return {
    entries: await roundViews(db, rows, shares),
    total_count: Number(total.n),
    limit: filter.limit,
    offset: filter.offset,
  };
}

async function visibleRound(
  db: Kysely<Database>,
  identity: Identity,
  roundId: string,
): Promise<RoundsTable> {
  const row = await db
    .selectFrom("rounds")
    .selectAll()
    .where("id", "=", roundId)
    .executeTakeFirst();
  if (!row) throw notFound("round", roundId);
  await ifNotFound(visibleDivision(db, identity, row.division_id), () =>
    notFound("round", roundId),
  );
  return row;
}

export async function getRound(
  db: Kysely<Database>,
  identity: Identity,
  roundId: string,
  shares: QueueShares = DEFAULT_QUEUE_SHARES,
): Promise<RoundDetail> {
  const row = await visibleRound(db, identity, roundId);
  const [view] = await roundViews(db, [row], shares);
  if (!view) throw new Error("unreachable: one row gives one view");
  const results = await db
    .selectFrom("round_results")
    .selectAll()
    .where("round_id", "=", roundId)
    .orderBy("rank")
    .orderBy("player_id")
    .execute();
  const [players, versions] = await Promise.all([
    playerRefs(
      db,
      results.map((r) => r.player_id),
    ),
    policyVersionRefs(
      db,
      results.map((r) => r.policy_version_id),
    ),
  ]);
  const league = await db
    .selectFrom("leagues")
    .select("commissioner_user_id")
    .where("id", "=", row.league_id)
    .executeTakeFirst();
  return {
    ...view,
    // The commissioner's own output may name what only its league's owner should read.
    commissioner_log:
      league && isCommissioner(identity, league) ? (row.commissioner_log ?? null) : null,
    results: results.map((r) => ({
      id: r.id,
      rank: r.rank,
      score: Number(r.score),
      result_metadata: parseJson<Record<string, unknown>>(r.result_metadata),
      policy_version: r.policy_version_id ? (versions.get(r.policy_version_id) ?? null) : null,
      player: players.get(r.player_id) ?? null,
      created_at: r.created_at,
    })),
  };
}

function poolView(row: PoolsTable): Pool {
  return {
    id: row.id,
    round_id: row.round_id,
    division_id: row.division_id,
    position: row.position,
    members: parseJson<Pool["members"]>(row.members),
    episode_count: row.episode_count,
    created_at: row.created_at,
  };
}

export async function listPools(
  db: Kysely<Database>,
  identity: Identity,
  roundId: string,
): Promise<Pool[]> {
  await visibleRound(db, identity, roundId);
  const rows = await db
    .selectFrom("pools")
    .selectAll()
    .where("round_id", "=", roundId)
    .orderBy("position")
    .execute();
  return rows.map(poolView);
}

export async function getPool(
  db: Kysely<Database>,
  identity: Identity,
  poolId: string,
): Promise<Pool> {
  const row = await db.selectFrom("pools").selectAll().where("id", "=", poolId).executeTakeFirst();
  if (!row) throw notFound("pool", poolId);
  await ifNotFound(visibleRound(db, identity, row.round_id), () => notFound("pool", poolId));
  return poolView(row);
}

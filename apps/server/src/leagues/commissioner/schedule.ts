// The league scheduling phase: the commissioner is shown its league and answers with zero or
// more RoundSpecs; the platform keeps those for open divisions of the league that have no
// unsettled round (one per division, by the unique index on rounds(division_id, active)) and whose
// idempotency key it has not seen, and persists them as pending rounds for a session to run.
import type { Kysely } from "kysely";

import { jsonBytes, newId, type CommissionerRoundSpec } from "@gauntlet/core";

import { nowIso } from "../../shared/clock.ts";
import type { Database, LeaguesTable } from "../../store/schema.ts";
import { divisionInfos, leagueInfo, membershipInfos, recentRounds } from "./context.ts";
import type { ResolvedCommissioner } from "./resolve.ts";
import { COMMISSIONER_STORED_MAX_BYTES } from "./round-record.ts";
import type { CommissionerSession } from "./session.ts";
import { fromWire } from "./wire-ids.ts";

export interface ScheduleOutcome {
  created: string[];
  /** Specs for what Gauntlet does not run, with why (for the server's log). */
  refused: string[];
}

type Coworld = Extract<ResolvedCommissioner, { kind: "coworld" }>;

export async function scheduleRounds(
  db: Kysely<Database>,
  session: CommissionerSession,
  league: LeaguesTable,
  commissioner: Coworld,
  timeoutMs: number,
): Promise<ScheduleOutcome> {
  await session.send({
    type: "schedule_rounds_request",
    league: leagueInfo(league),
    divisions: await divisionInfos(db, league.id),
    active_memberships: await membershipInfos(db, league.id),
    recent_rounds: await recentRounds(db, league.id),
  });
  const answer = await session.expect(["schedule_rounds_response"], timeoutMs);
  const outcome: ScheduleOutcome = { created: [], refused: [] };
  if (answer.persistent_players.length > 0)
    outcome.refused.push("persistent_players: persistent player runtimes are not supported");
  for (const spec of answer.rounds) {
    if (spec.recorded_episodes.length > 0) {
      outcome.refused.push(
        `division ${spec.division_id}: recorded-episode rounds are not supported`,
      );
      continue;
    }
    // Kept on the round, which every rounds listing serves.
    const configBytes = jsonBytes({ round_config: spec.round_config, notes: spec.notes ?? null });
    if (configBytes > COMMISSIONER_STORED_MAX_BYTES) {
      outcome.refused.push(
        `division ${spec.division_id}: round_config and notes are ${configBytes} bytes of JSON, past ${COMMISSIONER_STORED_MAX_BYTES}`,
      );
      continue;
    }
    // A spec for a busy or unknown division is dropped quietly: the protocol's own filter.
    await persist(db, league, commissioner, spec, outcome);
  }
  return outcome;
}

async function persist(
  db: Kysely<Database>,
  league: LeaguesTable,
  commissioner: Coworld,
  spec: CommissionerRoundSpec,
  outcome: ScheduleOutcome,
): Promise<string | null> {
  const divisionId = fromWire("division", spec.division_id);
  return db.transaction().execute(async (trx) => {
    const division = await trx
      .selectFrom("divisions")
      .select(["id"])
      .where("id", "=", divisionId)
      .where("league_id", "=", league.id)
      .where("archived_at", "is", null)
      .executeTakeFirst();
    if (!division) return `division ${spec.division_id} is not an open division of the league`;
    const active = await trx
      .selectFrom("rounds")
      .select("id")
      .where("division_id", "=", divisionId)
      .where("active", "=", 1)
      .executeTakeFirst();
    if (active) return `division ${spec.division_id} has round ${active.id} running`;
    if (spec.idempotency_key) {
      const seen = await trx
        .selectFrom("rounds")
        .select("id")
        .where("league_id", "=", league.id)
        .where("idempotency_key", "=", spec.idempotency_key)
        .executeTakeFirst();
      if (seen) return `idempotency key ${spec.idempotency_key} already made round ${seen.id}`;
    }
    const last = await trx
      .selectFrom("rounds")
      .select("round_number")
      .where("division_id", "=", divisionId)
      .orderBy("round_number", "desc")
      .executeTakeFirst();
    const now = nowIso();
    const id = newId("round");
    await trx
      .insertInto("rounds")
      .values({
        id,
        league_id: league.id,
        division_id: divisionId,
        round_number: (last?.round_number ?? 0) + 1,
        status: "pending",
        active: 1,
        commissioner_key: league.commissioner_key,
        execution_backend: spec.execution_backend,
        coworld_id: commissioner.coworld.id,
        round_config: JSON.stringify({
          commissioner: spec.round_config,
          notes: spec.notes ?? null,
          coworld: {
            id: commissioner.coworld.id,
            name: commissioner.coworld.name,
            version: commissioner.coworld.version,
          },
        }),
        round_display: JSON.stringify({}),
        episode_count: 0,
        error: null,
        started_at: null,
        completed_at: null,
        created_at: now,
        commissioner_runnable_id: commissioner.runnableId,
        commissioner_version: commissioner.coworld.version,
        idempotency_key: spec.idempotency_key ?? null,
      })
      .execute();
    outcome.created.push(id);
    return null;
  });
}

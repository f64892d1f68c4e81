// The migration handshake, run when a league's coworld commissioner (runnable or coworld version)
// is not yet the one its divisions were made canonical for: the commissioner declares its
// division set (create, rename by `previous_name`, archive the rest), is shown the planned
// divisions with the league's memberships, and answers with membership events. The divisions,
// the events and the archive are written in one transaction, which is refused whole when a live
// membership would stay in an archived division; the version is recorded only then.
import type { Kysely } from "kysely";

import { DivisionType, newId, type CommissionerDivisionConfig } from "@gauntlet/core";

import { nowIso } from "../../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../../store/schema.ts";
import { ACTIVE_STATUSES } from "../champions.ts";
import { rowFromSpec } from "../division-rows.ts";
import { CommissionerFailure } from "./channel.ts";
import { divisionInfos, leagueInfo, membershipInfos } from "./context.ts";
import { applyMembershipEvents } from "./membership-events.ts";
import type { CommissionerSession } from "./session.ts";
import { toWire } from "./wire-ids.ts";

interface PlannedDivision {
  id: string;
  config: CommissionerDivisionConfig;
  existing: DivisionsTable | undefined;
}

/**
 * A declaration's bounds, a league's own (its create's, @gauntlet/core models/league.ts): every
 * league page and listing serves its divisions.
 */
const MAX_DIVISIONS = 100;
const MAX_NAME = 200;
const MAX_DESCRIPTION = 20_000;
const MAX_LEVEL = 1000;

function plan(current: DivisionsTable[], configs: CommissionerDivisionConfig[]): PlannedDivision[] {
  if (configs.length > MAX_DIVISIONS)
    throw new CommissionerFailure(
      "malformed",
      `${configs.length} divisions declared; a league has at most ${MAX_DIVISIONS}`,
    );
  for (const config of configs) {
    const name = config.name.trim();
    if (name.length === 0 || name.length > MAX_NAME)
      throw new CommissionerFailure(
        "malformed",
        `a division name of ${config.name.length} characters (1 to ${MAX_NAME})`,
      );
    if ((config.description?.length ?? 0) > MAX_DESCRIPTION)
      throw new CommissionerFailure(
        "malformed",
        `division ${name}: a description past ${MAX_DESCRIPTION} characters`,
      );
    if (config.level < 0 || config.level > MAX_LEVEL)
      throw new CommissionerFailure(
        "malformed",
        `division ${name}: level ${config.level} (0 to ${MAX_LEVEL})`,
      );
  }
  const open = current.filter((d) => d.archived_at === null);
  const byName = new Map(current.map((d) => [d.name, d]));
  const claimed = new Set<string>();
  return configs.map((config) => {
    if (!DivisionType.safeParse(config.type).success)
      throw new CommissionerFailure(
        "malformed",
        `division ${config.name}: unknown type ${config.type}`,
      );
    const renamed = config.previous_name
      ? open.find((d) => d.name === config.previous_name)
      : undefined;
    const existing = renamed ?? byName.get(config.name);
    if (existing && claimed.has(existing.id))
      throw new CommissionerFailure("malformed", `division ${existing.name} is claimed twice`);
    if (existing) claimed.add(existing.id);
    return { id: existing?.id ?? newId("division"), config, existing };
  });
}

/** Runs the handshake over an open session; throws (CommissionerFailure or a refusal) when it fails. */
export async function migrateLeague(
  db: Kysely<Database>,
  session: CommissionerSession,
  league: LeaguesTable,
  version: string,
  timeoutMs: number,
): Promise<void> {
  const info = leagueInfo(league);
  await session.send({
    type: "league_migration_config_request",
    league: info,
    divisions: await divisionInfos(db, league.id),
  });
  const config = await session.expect(["league_migration_config_response"], timeoutMs);
  const current = await db
    .selectFrom("divisions")
    .selectAll()
    .where("league_id", "=", league.id)
    .execute();
  const planned = plan(current, config.divisions);
  await session.send({
    type: "league_migration_request",
    league: info,
    divisions: planned.map((p) => ({
      id: toWire(p.id),
      name: p.config.name,
      level: p.config.level,
      type: p.config.type,
    })),
    memberships: await membershipInfos(db, league.id),
  });
  const answer = await session.expect(["league_migration_response"], timeoutMs);

  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    for (const p of planned) {
      const type = DivisionType.parse(p.config.type);
      if (p.existing)
        await trx
          .updateTable("divisions")
          .set({
            name: p.config.name,
            level: p.config.level,
            type,
            description: p.config.description ?? p.existing.description,
            archived_at: null,
          })
          .where("id", "=", p.existing.id)
          .execute();
      else
        await trx
          .insertInto("divisions")
          .values(
            rowFromSpec(
              league.id,
              {
                id: p.id,
                name: p.config.name,
                level: p.config.level,
                type,
                description: p.config.description ?? null,
                hidden: false,
              },
              now,
            ),
          )
          .execute();
    }
    const keep = new Set(planned.map((p) => p.id));
    await applyMembershipEvents(trx, league.id, answer.policy_membership_events, keep);
    const archived = current
      .filter((d) => d.archived_at === null && !keep.has(d.id))
      .map((d) => d.id);
    if (archived.length > 0) {
      const stranded = await trx
        .selectFrom("league_policy_memberships")
        .select(["id", "division_id"])
        .where("division_id", "in", archived)
        .where("status", "in", ACTIVE_STATUSES)
        .executeTakeFirst();
      if (stranded)
        throw new CommissionerFailure(
          "malformed",
          `migration refused: live membership ${stranded.id} would stay in archived division ${stranded.division_id}`,
        );
      await trx
        .updateTable("divisions")
        .set({ archived_at: now })
        .where("id", "in", archived)
        .execute();
    }
    await trx
      .updateTable("leagues")
      .set({ commissioner_migration_version: version, updated_at: now })
      .where("id", "=", league.id)
      .execute();
  });
}

// Divisions of a league: the replaceable division set, reads and the division ladder.
import type { Kysely, Transaction } from "kysely";

import type { CommissionerDescription, Division, DivisionInput } from "@gauntlet/core";

import { canSeeDivision } from "../access/leagues.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { invalidInput, notFound } from "../shared/errors.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../store/schema.ts";
import { resolveCommissioner, selectedRunnable } from "./commissioner/resolve.ts";
import { describeDivision } from "./division-description.ts";
import { assertUniqueNames, rowFromSpec } from "./division-rows.ts";
import { ladderOrDefault } from "./ladder.ts";
import { getCommissionedLeagueRow, getVisibleLeagueRow, leagueViews } from "./leagues.ts";

/**
 * Replaces the league's division set in one transaction: entries with an id update that
 * division, entries without one create a division, and divisions left out are archived
 * (their rounds and memberships keep pointing at them; nothing is deleted).
 */
export async function replaceDivisions(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  specs: DivisionInput[],
): Promise<Division[]> {
  const league = await getCommissionedLeagueRow(db, identity, leagueId);
  assertUniqueNames(specs, ["body"]);
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("league_id", "=", league.id)
      .execute();
    const byId = new Map(current.map((d) => [d.id, d]));
    const now = nowIso();
    const kept = new Set<string>();
    for (const [i, spec] of specs.entries()) {
      if (spec.id) {
        const existing = byId.get(spec.id);
        if (!existing)
          throw invalidInput(
            ["body", i, "id"],
            `division ${spec.id} is not in league ${league.id}`,
            "value_error",
            spec.id,
          );
        kept.add(spec.id);
        const next = rowFromSpec(league.id, spec, existing.created_at);
        await trx
          .updateTable("divisions")
          .set({ ...next, archived_at: null, id: existing.id, league_id: existing.league_id })
          .where("id", "=", existing.id)
          .execute();
      } else {
        await trx
          .insertInto("divisions")
          .values(rowFromSpec(league.id, spec, now))
          .execute();
      }
    }
    const toArchive = current
      .filter((d) => !kept.has(d.id) && d.archived_at === null)
      .map((d) => d.id);
    if (toArchive.length)
      await trx
        .updateTable("divisions")
        .set({ archived_at: now })
        .where("id", "in", toArchive)
        .execute();
  });
  return listDivisions(db, identity, { leagueId: league.id });
}

export async function divisionViews(
  db: Kysely<Database>,
  rows: readonly DivisionsTable[],
  leagues: ReadonlyMap<string, LeaguesTable>,
): Promise<Division[]> {
  const views = new Map((await leagueViews(db, [...leagues.values()])).map((l) => [l.id, l]));
  const described = new Map<string, (stored: CommissionerDescription) => CommissionerDescription>();
  for (const league of leagues.values()) {
    // Only a league run by its coworld's commissioner reads anything more (its manifest entry).
    const commissioner =
      selectedRunnable(league) === null
        ? ({ kind: "builtin", key: league.commissioner_key } as const)
        : await resolveCommissioner(db, league);
    const ladder = ladderOrDefault(league);
    described.set(league.id, (stored) =>
      commissioner.kind === "invalid" ? stored : describeDivision(stored, ladder, commissioner),
    );
  }
  return rows.flatMap((row) => {
    const league = views.get(row.league_id);
    if (!league) return [];
    const stored = parseJson<CommissionerDescription>(row.commissioner_description);
    return [
      {
        id: row.id,
        name: row.name,
        level: row.level,
        league,
        created_at: row.created_at,
        type: row.type,
        description: row.description,
        hidden: row.hidden === 1,
        archived_at: row.archived_at,
        leaderboard_config: parseJson(row.leaderboard_config),
        round_schedule: parseJson(row.round_schedule),
        notes: row.notes,
        commissioner_description: described.get(league.id)?.(stored) ?? stored,
      },
    ];
  });
}

export async function listDivisions(
  db: Kysely<Database>,
  identity: Identity,
  filter: { leagueId?: string | undefined; includeArchived?: boolean | undefined },
): Promise<Division[]> {
  let q = db.selectFrom("divisions").selectAll();
  if (filter.leagueId) q = q.where("league_id", "=", filter.leagueId);
  if (!filter.includeArchived) q = q.where("archived_at", "is", null);
  const rows = await q.orderBy("level").orderBy("created_at").orderBy("id").execute();
  const leagueIds = [...new Set(rows.map((r) => r.league_id))];
  const leagues = new Map<string, LeaguesTable>(
    leagueIds.length
      ? (await db.selectFrom("leagues").selectAll().where("id", "in", leagueIds).execute()).map(
          (l) => [l.id, l],
        )
      : [],
  );
  const visible = rows.filter((r) => {
    const league = leagues.get(r.league_id);
    return league !== undefined && canSeeDivision(identity, league, r);
  });
  const visibleLeagues = new Map(
    [...leagues].filter(([id]) => visible.some((d) => d.league_id === id)),
  );
  return divisionViews(db, visible, visibleLeagues);
}

/** The division and the league it belongs to, as stored (no visibility rule), or undefined. */
export async function divisionWithLeague(
  db: Kysely<Database>,
  divisionId: string,
): Promise<{ division: DivisionsTable; league: LeaguesTable } | undefined> {
  const division = await db
    .selectFrom("divisions")
    .selectAll()
    .where("id", "=", divisionId)
    .executeTakeFirst();
  const league = division
    ? await db
        .selectFrom("leagues")
        .selectAll()
        .where("id", "=", division.league_id)
        .executeTakeFirst()
    : undefined;
  return division && league ? { division, league } : undefined;
}

export async function getDivision(
  db: Kysely<Database>,
  identity: Identity,
  divisionId: string,
): Promise<Division> {
  const found = await divisionWithLeague(db, divisionId);
  if (!found || !canSeeDivision(identity, found.league, found.division))
    throw notFound("division", divisionId);
  const { division: row, league } = found;
  const [view] = await divisionViews(db, [row], new Map([[league.id, league]]));
  if (!view) throw notFound("division", divisionId);
  return view;
}

export async function divisionLadder(db: Kysely<Database>, identity: Identity, leagueId: string) {
  const league = await getVisibleLeagueRow(db, identity, leagueId);
  const rows = await db
    .selectFrom("divisions")
    .leftJoin("league_policy_memberships as m", (join) =>
      join
        .onRef("m.division_id", "=", "divisions.id")
        .on("m.status", "in", ["qualifying", "competing"]),
    )
    .select(["divisions.id", "divisions.name", "divisions.level", "divisions.hidden"])
    .select((eb) => eb.fn.count("m.id").as("member_count"))
    .where("divisions.league_id", "=", league.id)
    .where("divisions.archived_at", "is", null)
    .groupBy(["divisions.id", "divisions.name", "divisions.level", "divisions.hidden"])
    .orderBy("divisions.level")
    .orderBy("divisions.name")
    .execute();
  return rows
    .filter((r) => canSeeDivision(identity, league, r))
    .map((r) => ({ id: r.id, name: r.name, level: r.level, member_count: Number(r.member_count) }));
}

/** The league's open (not archived) competition divisions, top (lowest level) first. */
export function competitionDivisions(
  db: Kysely<Database> | Transaction<Database>,
  leagueId: string,
) {
  return db
    .selectFrom("divisions")
    .selectAll()
    .where("league_id", "=", leagueId)
    .where("type", "=", "competition")
    .where("archived_at", "is", null)
    .orderBy("level");
}

/** The league's top competition division (the lowest level not archived), if it has one. */
export async function topCompetitionDivision(
  db: Kysely<Database>,
  leagueId: string,
): Promise<DivisionsTable | undefined> {
  return competitionDivisions(db, leagueId).executeTakeFirst();
}

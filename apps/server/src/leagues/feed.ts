// The competition feed (GET /v2/competition-events), newest first, with the visibility of the
// HTTP reads: events of leagues and divisions the caller sees; `owner` events for their user,
// the league's commissioner and admins.
import type { Kysely } from "kysely";

import type { CompetitionEvent, QueryOf } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { visibleEventsFilter } from "../access/events.ts";
import type { Identity } from "../auth/identity.ts";
import { parseJson } from "../shared/clock.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";
import { embeddedRefs } from "./refs.ts";

type FeedFilter = QueryOf<"listCompetitionEvents">;

export async function listCompetitionEvents(
  db: Kysely<Database>,
  identity: Identity,
  filter: FeedFilter,
): Promise<CompetitionEvent[]> {
  let q = db.selectFrom("competition_events").selectAll();
  for (const key of [
    "league_id",
    "division_id",
    "round_id",
    "event_type",
    "audience",
    "player_id",
    "policy_version_id",
  ] as const) {
    const value = filter[key];
    if (value !== undefined) q = q.where(key, "=", value);
  }
  if (!actsAsAdmin(identity)) q = q.where(visibleEventsFilter(db, identity));
  const rows = await q.orderBy("seq", "desc").limit(filter.limit).execute();
  return renderCompetitionEvents(db, rows);
}

/** Events as the feed and the live socket show them: the league, division, player and policy
 * version they are about, embedded whole as they are now, loaded once per batch. */
export async function renderCompetitionEvents(
  db: Kysely<Database>,
  rows: readonly CompetitionEventsTable[],
): Promise<CompetitionEvent[]> {
  const { leagues, divisions, players, versions } = await embeddedRefs(db, rows);
  const pick = <T>(map: ReadonlyMap<string, T>, id: string | null): T | null =>
    id === null ? null : (map.get(id) ?? null);
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    event_type: row.event_type,
    audience: row.audience,
    user_id: row.user_id,
    player: pick(players, row.player_id),
    policy_version: pick(versions, row.policy_version_id),
    league: pick(leagues, row.league_id),
    division: pick(divisions, row.division_id),
    round_id: row.round_id,
    episode_request_id: row.episode_request_id,
    headline: row.headline,
    summary: row.summary,
    payload: parseJson<Record<string, unknown>>(row.payload),
    created_at: row.created_at,
  }));
}

// GET /v2/standings: a division named by its league's and its own name or id, with its league,
// the league's divisions and its standings, in one read — what a viewer (`gauntlet watch`)
// draws its first screen from, instead of a catalogue walk and a leaderboard read after it.
// Names match as the terminal UI's picker does: case-insensitively, the whole name first, then
// as a prefix, among the leagues the caller can see (game of the week first, then by name).
import type { Kysely } from "kysely";

import {
  DivisionId,
  LeagueId,
  type Division,
  type DivisionStandingsView,
  type League,
} from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import { invalidInput, notFound } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { getDivision, listDivisions } from "./divisions.ts";
import { getVisibleLeagueRow, leagueView, listLeagues } from "./leagues.ts";
import { readLeaderboard, type StandingsCache } from "./standings-read.ts";

export interface StandingsViewQuery {
  league?: string | undefined;
  division?: string | undefined;
}

/** Competition divisions by level, then staging ones; hidden and archived ones left out. */
function listed(divisions: readonly Division[]): Division[] {
  const rank = (d: Division) => (d.type === "competition" ? 0 : 1);
  return divisions
    .filter((d) => !d.hidden && d.archived_at === null)
    .sort((a, b) => rank(a) - rank(b) || a.level - b.level || a.name.localeCompare(b.name));
}

function byName<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  wanted: string,
): T | undefined {
  const lower = wanted.trim().toLowerCase();
  return (
    items.find((i) => nameOf(i).toLowerCase() === lower) ??
    items.find((i) => nameOf(i).toLowerCase().startsWith(lower))
  );
}

async function divisionsOf(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<Division[]> {
  return listed(await listDivisions(db, identity, { leagueId }));
}

/** The league and division the query names, with the league's listed divisions. */
async function target(
  db: Kysely<Database>,
  identity: Identity,
  query: StandingsViewQuery,
): Promise<{ league: League; division: Division; divisions: Division[] }> {
  const { league: leagueFlag, division: divisionFlag } = query;
  if (divisionFlag !== undefined && DivisionId.safeParse(divisionFlag).success) {
    const division = await getDivision(db, identity, divisionFlag);
    const divisions = await divisionsOf(db, identity, division.league.id);
    return {
      league: division.league,
      division,
      divisions: divisions.some((d) => d.id === division.id) ? divisions : [division, ...divisions],
    };
  }
  const pick = (league: League, divisions: Division[]) => {
    const division =
      divisionFlag === undefined
        ? (divisions.find((d) => d.type === "competition") ?? divisions[0])
        : (divisions.find((d) => d.id === divisionFlag) ??
          byName(divisions, (d) => d.name, divisionFlag));
    if (!division)
      throw notFound(`division ${JSON.stringify(divisionFlag ?? "")} of league`, league.id);
    return { league, division, divisions };
  };
  if (leagueFlag !== undefined && LeagueId.safeParse(leagueFlag).success) {
    const league = await leagueView(db, await getVisibleLeagueRow(db, identity, leagueFlag));
    return pick(league, await divisionsOf(db, identity, league.id));
  }
  const leagues = (await listLeagues(db, identity, {}))
    .filter((l) => l.disabled_at === null)
    .sort(
      (a, b) =>
        Number(b.is_game_of_week) - Number(a.is_game_of_week) || a.name.localeCompare(b.name),
    );
  if (leagueFlag !== undefined) {
    const league = byName(leagues, (l) => l.name, leagueFlag);
    if (!league) throw notFound(`league ${JSON.stringify(leagueFlag)}`);
    return pick(league, await divisionsOf(db, identity, league.id));
  }
  if (divisionFlag === undefined)
    throw invalidInput(["query", "league"], "give league or division (a name or an id)");
  // A division's name alone: the first league (in the picker's order) with a division matching.
  const all = await listDivisions(db, identity, {});
  for (const league of leagues) {
    const divisions = listed(all.filter((d) => d.league.id === league.id));
    const division =
      divisions.find((d) => d.id === divisionFlag) ??
      byName(divisions, (d) => d.name, divisionFlag);
    if (division) return { league, division, divisions };
  }
  throw notFound(`division ${JSON.stringify(divisionFlag)}`);
}

export async function readStandingsView(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  query: StandingsViewQuery,
): Promise<DivisionStandingsView> {
  const found = await target(db, identity, query);
  const leaderboard = await readLeaderboard(db, cache, identity, found.division.id, true);
  return { ...found, leaderboard };
}

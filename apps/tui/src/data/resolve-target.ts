// `--league` and `--division` to the division to watch: by id (one or two requests) or by name
// (through the catalogue). Names match case-insensitively, whole first, then as a prefix.
import {
  DivisionId,
  LeagueId,
  type Division,
  type DivisionLeaderboard,
  type DivisionStandingsView,
  type League,
} from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { loadCatalog, loadDivisions, type CatalogEntry } from "./catalog.ts";

export interface TargetFlags {
  league?: string | undefined;
  division?: string | undefined;
}

export type Target =
  | {
      found: true;
      league: League;
      division: Division;
      divisions: readonly Division[];
      /** Read with the target (the server's one-request view), when it was. */
      standings?: DivisionLeaderboard;
    }
  | { found: false; message: string };

/**
 * The target from the first screen's one request (`GET /v2/standings`, started before the UI
 * loads), with its standings; when that request fails (no match, or a server without it), the
 * target resolved request by request, whose messages say what did not match.
 */
export async function openTarget(
  client: Gauntlet,
  flags: TargetFlags,
  opening: Promise<DivisionStandingsView> | null,
  signal?: AbortSignal,
): Promise<Target> {
  if (opening) {
    try {
      const view = await opening;
      return {
        found: true,
        league: view.league,
        division: view.division,
        divisions: view.divisions,
        standings: view.leaderboard,
      };
    } catch {
      // resolved again below, one request at a time, to say which name did not match
    }
  }
  return resolveTarget(client, flags, signal);
}

function byName<T extends { name: string }>(items: readonly T[], wanted: string): T | undefined {
  const lower = wanted.trim().toLowerCase();
  return (
    items.find((i) => i.name.toLowerCase() === lower) ??
    items.find((i) => i.name.toLowerCase().startsWith(lower))
  );
}

function topDivision(divisions: readonly Division[]): Division | undefined {
  return divisions.find((d) => d.type === "competition") ?? divisions[0];
}

export async function resolveTarget(
  client: Gauntlet,
  flags: TargetFlags,
  signal?: AbortSignal,
): Promise<Target> {
  const { league: leagueFlag, division: divisionFlag } = flags;
  if (divisionFlag !== undefined && DivisionId.safeParse(divisionFlag).success) {
    const division = await client.divisions.get({ division_id: divisionFlag }, { signal });
    const divisions = await loadDivisions(client, division.league.id, signal);
    return {
      found: true,
      league: division.league,
      division,
      divisions: divisions.some((d) => d.id === division.id) ? divisions : [division, ...divisions],
    };
  }
  if (leagueFlag !== undefined && LeagueId.safeParse(leagueFlag).success) {
    const divisions = await loadDivisions(client, leagueFlag, signal);
    return pick(
      divisions[0]?.league ?? (await client.leagues.get({ league_id: leagueFlag }, { signal })),
      divisions,
      divisionFlag,
    );
  }
  const catalog = await loadCatalog(client, signal);
  return fromCatalog(catalog, flags);
}

export function fromCatalog(catalog: readonly CatalogEntry[], flags: TargetFlags): Target {
  const { league: leagueFlag, division: divisionFlag } = flags;
  if (leagueFlag !== undefined) {
    const entry =
      catalog.find((e) => e.league.id === leagueFlag) ??
      byName(
        catalog.map((e) => ({ ...e, name: e.league.name })),
        leagueFlag,
      );
    if (!entry)
      return {
        found: false,
        message: `no league you can see matches --league ${JSON.stringify(leagueFlag)}`,
      };
    return pick(entry.league, entry.divisions, divisionFlag);
  }
  if (divisionFlag !== undefined) {
    for (const entry of catalog) {
      const division =
        entry.divisions.find((d) => d.id === divisionFlag) ?? byName(entry.divisions, divisionFlag);
      if (division)
        return { found: true, league: entry.league, division, divisions: entry.divisions };
    }
    return {
      found: false,
      message: `no division you can see matches --division ${JSON.stringify(divisionFlag)}`,
    };
  }
  return { found: false, message: "give --league or --division" };
}

function pick(
  league: League,
  divisions: readonly Division[],
  divisionFlag: string | undefined,
): Target {
  const division =
    divisionFlag === undefined
      ? topDivision(divisions)
      : (divisions.find((d) => d.id === divisionFlag) ?? byName(divisions, divisionFlag));
  if (!division) {
    return {
      found: false,
      message:
        divisionFlag === undefined
          ? `league ${league.name} has no divisions yet`
          : `league ${league.name} has no division matching --division ${JSON.stringify(divisionFlag)}`,
    };
  }
  return { found: true, league, division, divisions };
}

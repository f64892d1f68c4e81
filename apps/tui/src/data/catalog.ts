// What the picker offers: the leagues the caller can see (public ones, and their own when
// signed in) with their divisions, top division first.
import type { Division, League } from "@gauntlet/core";
import { allItems, type Gauntlet } from "@gauntlet/sdk";

export interface CatalogEntry {
  readonly league: League;
  /** Competition divisions by level, then staging ones. */
  readonly divisions: readonly Division[];
}

export function sortDivisions(divisions: readonly Division[]): Division[] {
  const rank = (d: Division) => (d.type === "competition" ? 0 : 1);
  return [...divisions]
    .filter((d) => !d.hidden && d.archived_at === null)
    .sort((a, b) => rank(a) - rank(b) || a.level - b.level || a.name.localeCompare(b.name));
}

export async function loadDivisions(
  client: Gauntlet,
  leagueId: string,
  signal?: AbortSignal,
): Promise<Division[]> {
  return sortDivisions(await client.divisions.list({ league_id: leagueId }, { signal }));
}

export async function loadCatalog(client: Gauntlet, signal?: AbortSignal): Promise<CatalogEntry[]> {
  // Every page of the listing (the server answers a page at a time).
  const leagues = (await allItems(client.leagues.list.iterate(undefined, { signal }))).filter(
    (l) => l.disabled_at === null,
  );
  leagues.sort(
    (a, b) => Number(b.is_game_of_week) - Number(a.is_game_of_week) || a.name.localeCompare(b.name),
  );
  const entries: CatalogEntry[] = [];
  // A few at a time: a server with many leagues is not asked for all of them at once.
  for (let i = 0; i < leagues.length; i += 4) {
    const batch = leagues.slice(i, i + 4);
    const divisions = await Promise.all(
      batch.map((league) => loadDivisions(client, league.id, signal)),
    );
    batch.forEach((league, j) => entries.push({ league, divisions: divisions[j] ?? [] }));
  }
  return entries;
}

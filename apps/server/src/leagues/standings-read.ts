// Standings reads. Nothing is aggregated per read: standings-store.ts writes the standings when
// they change. This replica keeps the parsed standings of each division it serves, with the
// division's visibility facts, and re-reads them from the database when
//  - a `standings_changed` event for the division is published here or reaches this replica
//    (the bus tells at once — on the writing replica before the write's HTTP answer — and the
//    event hub, which misses none, tells again), or
//  - they were checked more than REVALIDATE_MS ago (so a league made private stops serving
//    within that time; GAUNTLET_STANDINGS_REVALIDATE_MS sets another interval).
// A read is then a lookup and the visibility rule of the HTTP reads, answered with bytes
// serialised once per standings version (http/serialised.ts); at most one small indexed query
// per division per REVALIDATE_MS otherwise.
import type { CompiledQuery, Kysely, Transaction } from "kysely";

import type { DivisionLeaderboard, DivisionLeaderboards, LeaderboardRow } from "@gauntlet/core";

import { canSeeLeague, isCommissioner } from "../access/leagues.ts";
import type { Identity } from "../auth/identity.ts";
import { shareSerialised } from "../http/serialised.ts";
import { parseJson } from "../shared/clock.ts";
import { notFound } from "../shared/errors.ts";
import type { CompetitionEventsTable, Database } from "../store/schema.ts";

export const REVALIDATE_MS = 1_000;

function visibilityQuery(db: Kysely<Database>, divisionId: string) {
  return db
    .selectFrom("divisions as d")
    .innerJoin("leagues as l", "l.id", "d.league_id")
    .leftJoin("division_leaderboards as dl", "dl.division_id", "d.id")
    .select([
      "d.hidden as division_hidden",
      "l.public",
      "l.hidden",
      "l.disabled_at",
      "l.commissioner_user_id",
      "dl.version",
    ])
    .where("d.id", "=", divisionId);
}

type Scope = Awaited<ReturnType<ReturnType<typeof visibilityQuery>["executeTakeFirstOrThrow"]>>;

interface Parsed {
  version: number;
  rows: LeaderboardRow[];
  /** The rows without recent rounds (the default read). */
  brief: LeaderboardRow[];
  views: DivisionLeaderboards;
}

interface Entry {
  scope: Scope;
  standings: Parsed | null;
  checkedAt: number;
}

// The read's SQL, compiled once per database (building a query costs about as much as running it).
const compiled = new WeakMap<Kysely<Database>, CompiledQuery<Scope>>();

async function readScope(db: Kysely<Database>, divisionId: string): Promise<Scope | undefined> {
  let query = compiled.get(db);
  if (!query) {
    query = visibilityQuery(db, "").compile();
    compiled.set(db, query);
  }
  return (await db.executeQuery<Scope>({ ...query, parameters: [divisionId] })).rows[0];
}

/** Parsed standings by division, forgotten when an event says they changed. */
export class StandingsCache {
  readonly #entries = new Map<string, Entry>();
  readonly #capacity: number;
  readonly #now: () => number;
  readonly #revalidateMs: number;

  constructor(options: { capacity?: number; now?: () => number; revalidateMs?: number } = {}) {
    this.#capacity = options.capacity ?? 2_000;
    this.#now = options.now ?? Date.now;
    this.#revalidateMs = options.revalidateMs ?? REVALIDATE_MS;
  }

  /** Drops the divisions whose standings these events changed (a bus listener). */
  forget(rows: readonly Pick<CompetitionEventsTable, "event_type" | "division_id">[]): void {
    for (const row of rows)
      if (row.event_type === "standings_changed" && row.division_id !== null)
        this.#entries.delete(row.division_id);
  }

  /** The division's scope and standings, from the cache while fresh; 404 when the division does not exist. */
  async get(db: Kysely<Database>, divisionId: string): Promise<Entry> {
    const now = this.#now();
    const cached = this.#entries.get(divisionId);
    if (cached && now - cached.checkedAt < this.#revalidateMs) return cached;
    const scope = await readScope(db, divisionId);
    if (!scope) throw notFound("division", divisionId);
    let standings = cached?.standings ?? null;
    if (scope.version === null) standings = null;
    else if (!standings || standings.version < Number(scope.version))
      standings = await this.#load(db, divisionId);
    const entry = { scope, standings, checkedAt: now };
    this.#entries.delete(divisionId);
    this.#entries.set(divisionId, entry);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return entry;
  }

  async #load(db: Kysely<Database>, divisionId: string): Promise<Parsed> {
    const stored = await db
      .selectFrom("division_leaderboards")
      .select(["version", "rows", "views"])
      .where("division_id", "=", divisionId)
      .executeTakeFirstOrThrow();
    const views = parseJson<DivisionLeaderboards>(stored.views);
    // Standings stored before rows carried their label take it from the stored score column.
    const label = views.views[0]?.columns.find((c) => c.key === "score")?.label ?? "Score";
    type StoredRow = Omit<LeaderboardRow, "score_label"> & { score_label?: string };
    const rows: LeaderboardRow[] = parseJson<StoredRow[]>(stored.rows).map((r) => ({
      ...r,
      score_label: r.score_label ?? label,
    }));
    // Every read of this version answers with one of these three values: serialised once each.
    return {
      version: Number(stored.version),
      rows: shareSerialised(rows),
      brief: shareSerialised(rows.map((r) => ({ ...r, recent_rounds: [] }))),
      views: shareSerialised(views),
    };
  }
}

const EMPTY_VIEWS: DivisionLeaderboards = { default_view_key: "overall", axes: [], views: [] };

async function visibleStandings(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  divisionId: string,
): Promise<Parsed | null> {
  const { scope, standings } = await cache.get(db, divisionId);
  if (
    !canSeeLeague(identity, scope) ||
    (scope.division_hidden === 1 && !isCommissioner(identity, scope))
  )
    throw notFound("division", divisionId);
  return standings;
}

export async function readLeaderboard(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  divisionId: string,
  includeRecentRounds: boolean,
): Promise<DivisionLeaderboard> {
  const standings = await visibleStandings(db, cache, identity, divisionId);
  if (!standings || standings.rows.length === 0) return null;
  return includeRecentRounds ? standings.rows : standings.brief;
}

export async function readLeaderboardViews(
  db: Kysely<Database>,
  cache: StandingsCache,
  identity: Identity,
  divisionId: string,
): Promise<DivisionLeaderboards> {
  return (await visibleStandings(db, cache, identity, divisionId))?.views ?? EMPTY_VIEWS;
}

/** A division's stored standings rows as last written (none before its first standings). */
export async function storedStandingRows(
  db: Kysely<Database> | Transaction<Database>,
  divisionId: string,
): Promise<LeaderboardRow[]> {
  const stored = await db
    .selectFrom("division_leaderboards")
    .select("rows")
    .where("division_id", "=", divisionId)
    .executeTakeFirst();
  return stored ? parseJson<LeaderboardRow[]>(stored.rows) : [];
}

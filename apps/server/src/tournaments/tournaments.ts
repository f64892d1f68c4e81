// Tournaments in the store: who may see and change them, entrants and their seeding, the
// draft's edits, the draw at lock (an elimination bracket or a round-robin schedule), and the
// view with the matches and the winner.
import type { Kysely, Transaction } from "kysely";

import {
  MAX_EXPERIENCE_EPISODES,
  newId,
  type BodyOf,
  type Tournament,
  type TournamentEntrant,
} from "@gauntlet/core";

import { canSeeLeague, isCommissioner } from "../access/leagues.ts";
import { assertSeatable } from "../access/seating.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { divisionChampions } from "../evaluations/roster.ts";
import { gameCoworld } from "../games/games.ts";
import { topCompetitionDivision } from "../leagues/divisions.ts";
import { getCommissionedLeagueRow, getVisibleLeagueRow } from "../leagues/leagues.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, invalidInput, notFound } from "../shared/errors.ts";
import type {
  Database,
  LeaguesTable,
  TournamentEntrantsTable,
  TournamentMatchesTable,
  TournamentsTable,
} from "../store/schema.ts";
import { drawRoundRobin, drawSingleElimination } from "./bracket.ts";
import { drawDoubleElimination } from "./double-elimination.ts";
import { placeWinner, syncDoubleElimination } from "./propagate.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** A wave seats each entrant at most once, so it holds at most ⌊n/2⌋ matches: that many times the
 * episodes per match must fit in one experience request. */
function assertWaveFits(entrants: number, episodesPerMatch: number): void {
  if (Math.floor(entrants / 2) * episodesPerMatch > MAX_EXPERIENCE_EPISODES) {
    throw invalidInput(
      ["body", "episodes_per_match"],
      `${entrants} entrants play up to ${Math.floor(entrants / 2)} matches in a wave; at ${episodesPerMatch} episodes each that exceeds the ${MAX_EXPERIENCE_EPISODES} episodes of one experience request`,
      "value_error",
      episodesPerMatch,
    );
  }
}

type Entrant = Omit<TournamentEntrantsTable, "tournament_id">;

async function givenEntrants(db: Db, ids: readonly string[]): Promise<Entrant[]> {
  const rows = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .leftJoin("players as pl", "pl.id", "pv.player_id")
    .select(["pv.id", "pv.version", "p.name", "pv.player_id", "pl.name as player_name"])
    .where("pv.id", "in", [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id, index) => {
    const row = byId.get(id);
    if (!row)
      throw invalidInput(
        ["body", "policy_version_ids", index],
        `no policy version ${id}`,
        "value_error",
        id,
      );
    return {
      seed: index + 1,
      policy_version_id: id,
      player_id: row.player_id,
      display_name: row.player_name ?? `${row.name} v${row.version}`,
    };
  });
}

/** The league's competing champions, seeded by its top competition division's standings. */
async function standingsEntrants(db: Kysely<Database>, league: LeaguesTable): Promise<Entrant[]> {
  const division = await topCompetitionDivision(db, league.id);
  const champions = division ? await divisionChampions(db, league, division) : [];
  if (champions.length < 2)
    throw invalidInput(
      ["body", "policy_version_ids"],
      `league ${league.id}'s standings seed ${champions.length} competing champion(s); a tournament needs 2 or more: give policy_version_ids`,
      "missing",
    );
  return champions.slice(0, 64).map((c, index) => ({
    seed: index + 1,
    policy_version_id: c.policyVersionId,
    player_id: c.playerId,
    display_name: c.displayName,
  }));
}

async function entrantsFor(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  league: LeaguesTable,
  ids: readonly string[] | undefined,
): Promise<{ seeding: "given" | "standings"; entrants: Entrant[] }> {
  if (!ids) return { seeding: "standings", entrants: await standingsEntrants(db, league) };
  // Checked first, so an unknown and a private id read alike. The tournament plays the league's
  // coworld, as its league's members agreed to.
  const coworld = await gameCoworld(db, league.game_id);
  await assertSeatable(
    db,
    identity,
    { coworldId: coworld?.id ?? "", leagueId: league.id },
    ids.map((id, index) => ({ policyVersionId: id, loc: ["body", "policy_version_ids", index] })),
  );
  return { seeding: "given", entrants: await givenEntrants(db, ids) };
}

const BRACKET_ORDER: Record<TournamentMatchesTable["bracket"], number> = {
  main: 0,
  winners: 1,
  losers: 2,
  final: 3,
};

export async function tournamentViews(
  db: Kysely<Database>,
  rows: readonly TournamentsTable[],
): Promise<Tournament[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const entrants = await db
    .selectFrom("tournament_entrants")
    .selectAll()
    .where("tournament_id", "in", ids)
    .orderBy("seed")
    .execute();
  const matches = (
    await db
      .selectFrom("tournament_matches")
      .selectAll()
      .where("tournament_id", "in", ids)
      .orderBy("round")
      .orderBy("position")
      .execute()
  ).sort((x, y) => BRACKET_ORDER[x.bracket] - BRACKET_ORDER[y.bracket]);
  return rows.map((row) => {
    const own = entrants
      .filter((e) => e.tournament_id === row.id)
      .map((e): TournamentEntrant => ({
        seed: e.seed,
        policy_version_id: e.policy_version_id,
        player_id: e.player_id,
        display_name: e.display_name,
      }));
    const bracket = matches.filter((m) => m.tournament_id === row.id);
    const waves = [
      ...new Set(
        bracket.flatMap((m) => (m.experience_request_id ? [m.experience_request_id] : [])),
      ),
    ];
    return {
      id: row.id,
      league_id: row.league_id,
      name: row.name,
      format: row.format,
      status: row.status,
      episodes_per_match: row.episodes_per_match,
      variant_id: row.variant_id,
      game_config_overrides:
        row.game_config_overrides === null
          ? null
          : parseJson<Record<string, unknown>>(row.game_config_overrides),
      seeding: row.seeding === "standings" ? "standings" : "given",
      entrants: own,
      matches: bracket.map((m) => ({
        id: m.id,
        bracket: m.bracket,
        round: m.round,
        position: m.position,
        status: m.status,
        seed_a: m.seed_a,
        seed_b: m.seed_b,
        winner_seed: m.winner_seed,
        decided_by: m.decided_by as Tournament["matches"][number]["decided_by"],
        score_a: m.score_a === null ? null : Number(m.score_a),
        score_b: m.score_b === null ? null : Number(m.score_b),
        episodes_completed: m.episodes_completed,
        experience_request_id: m.experience_request_id,
      })),
      waves,
      winner: own.find((e) => e.seed === row.winner_seed) ?? null,
      error: row.error,
      created_by_user_id: row.created_by_user_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      started_at: row.started_at,
      completed_at: row.completed_at,
    };
  });
}

export async function tournamentView(
  db: Kysely<Database>,
  row: TournamentsTable,
): Promise<Tournament> {
  const [view] = await tournamentViews(db, [row]);
  if (!view) throw new Error(`no view of tournament ${row.id}`);
  return view;
}

/** The tournament if the caller may see its league; 404 otherwise. */
export async function visibleTournamentRow(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<TournamentsTable> {
  const row = await db
    .selectFrom("tournaments")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  const league = row
    ? await db.selectFrom("leagues").selectAll().where("id", "=", row.league_id).executeTakeFirst()
    : undefined;
  if (!row || !league || !canSeeLeague(identity, league)) throw notFound("tournament", id);
  return row;
}

/** The tournament if the caller may change it: 404 when unseen, 403 unless commissioner or admin. */
export async function changeableTournamentRow(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<TournamentsTable> {
  const row = await visibleTournamentRow(db, identity, id);
  const league = await db
    .selectFrom("leagues")
    .select(["commissioner_user_id"])
    .where("id", "=", row.league_id)
    .executeTakeFirstOrThrow();
  if (!isCommissioner(identity, league))
    throw forbidden(
      `Only the commissioner of league ${row.league_id} or an admin may change tournament ${id}.`,
    );
  return row;
}

/** The tournament as it stands now (read again after a change), known to exist. */
export const tournamentRow = (db: Kysely<Database>, id: string): Promise<TournamentsTable> =>
  db.selectFrom("tournaments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

export const wrongState = (
  row: Pick<TournamentsTable, "id" | "status">,
  action: string,
  allowed: readonly string[],
) =>
  conflict(
    `tournament ${row.id} is ${row.status}; ${action} needs it ${allowed.join(" or ")}`,
    "tournament_state",
    { status: row.status },
  );

export async function createTournament(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  leagueId: string,
  body: BodyOf<"createTournament">,
): Promise<Tournament> {
  const league = await getCommissionedLeagueRow(db, identity, leagueId);
  const { seeding, entrants } = await entrantsFor(db, identity, league, body.policy_version_ids);
  assertWaveFits(entrants.length, body.episodes_per_match);
  const now = nowIso();
  const row: TournamentsTable = {
    id: newId("tournament"),
    league_id: league.id,
    name: body.name,
    format: body.format,
    status: "draft",
    episodes_per_match: body.episodes_per_match,
    variant_id: body.variant_id ?? null,
    game_config_overrides: body.game_config_overrides
      ? JSON.stringify(body.game_config_overrides)
      : null,
    seeding,
    wave: 0,
    winner_seed: null,
    error: null,
    created_by_user_id: identity.userId,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("tournaments").values(row).execute();
    await trx
      .insertInto("tournament_entrants")
      .values(entrants.map((e) => ({ ...e, tournament_id: row.id })))
      .execute();
  });
  return tournamentView(db, row);
}

export async function listTournaments(
  db: Kysely<Database>,
  identity: Identity,
  leagueId: string,
): Promise<Tournament[]> {
  await getVisibleLeagueRow(db, identity, leagueId);
  const rows = await db
    .selectFrom("tournaments")
    .selectAll()
    .where("league_id", "=", leagueId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return tournamentViews(db, rows);
}

export async function getTournament(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<Tournament> {
  return tournamentView(db, await visibleTournamentRow(db, identity, id));
}

export async function updateTournament(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
  patch: BodyOf<"updateTournament">,
): Promise<Tournament> {
  const row = await changeableTournamentRow(db, identity, id);
  if (row.status !== "draft") throw wrongState(row, "a change", ["draft"]);
  const league = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", row.league_id)
    .executeTakeFirstOrThrow();
  const reseed =
    patch.policy_version_ids !== undefined
      ? await entrantsFor(db, identity, league, patch.policy_version_ids)
      : null;
  const count = reseed
    ? reseed.entrants.length
    : Number(
        (
          await db
            .selectFrom("tournament_entrants")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("tournament_id", "=", id)
            .executeTakeFirstOrThrow()
        ).n,
      );
  assertWaveFits(count, patch.episodes_per_match ?? row.episodes_per_match);
  const changes: Partial<TournamentsTable> = { updated_at: nowIso() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.format !== undefined) changes.format = patch.format;
  if (patch.episodes_per_match !== undefined) changes.episodes_per_match = patch.episodes_per_match;
  if (patch.variant_id !== undefined) changes.variant_id = patch.variant_id;
  if (patch.game_config_overrides !== undefined)
    changes.game_config_overrides =
      patch.game_config_overrides === null ? null : JSON.stringify(patch.game_config_overrides);
  if (reseed) changes.seeding = reseed.seeding;
  const updated = await db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable("tournaments")
      .set(changes)
      .where("id", "=", id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    if (reseed) {
      await trx.deleteFrom("tournament_entrants").where("tournament_id", "=", id).execute();
      await trx
        .insertInto("tournament_entrants")
        .values(reseed.entrants.map((e) => ({ ...e, tournament_id: id })))
        .execute();
    }
    return true;
  });
  const now = await tournamentRow(db, id);
  if (!updated) throw wrongState(now, "a change", ["draft"]);
  return tournamentView(db, now);
}

/** A match of the draw before anything is known of it. */
const emptyMatch = (
  tournamentId: string,
  now: string,
): Omit<TournamentMatchesTable, "id" | "round" | "position"> => ({
  tournament_id: tournamentId,
  bracket: "main",
  status: "pending",
  seed_a: null,
  seed_b: null,
  winner_seed: null,
  decided_by: null,
  score_a: null,
  score_b: null,
  episodes_completed: 0,
  experience_request_id: null,
  updated_at: now,
});

/** draft → locked: the entrants are final and the bracket is drawn; byes are decided at once. */
export async function lockTournament(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<Tournament> {
  const row = await changeableTournamentRow(db, identity, id);
  const locked = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const res = await trx
      .updateTable("tournaments")
      .set({ status: "locked", updated_at: now })
      .where("id", "=", id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const count = Number(
      (
        await trx
          .selectFrom("tournament_entrants")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("tournament_id", "=", id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const { format } = await trx
      .selectFrom("tournaments")
      .select("format")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    if (format === "double_elimination") {
      const draw = drawDoubleElimination(count);
      await trx
        .insertInto("tournament_matches")
        .values(
          draw.map((m) => ({
            ...emptyMatch(id, now),
            id: `${id}_${m.key}`,
            bracket: m.bracket,
            round: m.round,
            position: m.position,
            seed_a: m.a.kind === "seed" ? m.a.seed : null,
            seed_b: m.b.kind === "seed" ? m.b.seed : null,
          })),
        )
        .execute();
      // Readies the first round and plays out its byes (and the empty matches they leave in the
      // losers bracket); two entrants at least, so this never ends the tournament.
      await syncDoubleElimination(trx, id);
      return true;
    }
    const draw = format === "round_robin" ? drawRoundRobin(count) : drawSingleElimination(count);
    const matches: TournamentMatchesTable[] = draw.map((m) => ({
      ...emptyMatch(id, now),
      id: `${id}_r${m.round}m${m.position}`,
      round: m.round,
      position: m.position,
      status: m.round === 1 && m.seedA !== null && m.seedB !== null ? "ready" : "pending",
      seed_a: m.seedA,
      seed_b: m.seedB,
    }));
    await trx.insertInto("tournament_matches").values(matches).execute();
    for (const m of matches) {
      // Only an elimination bracket has byes; a round robin leaves the sitting-out entrant out.
      if (m.round !== 1 || (m.seed_a !== null && m.seed_b !== null)) continue;
      const seed = m.seed_a ?? m.seed_b;
      if (seed === null) continue;
      await trx
        .updateTable("tournament_matches")
        .set({ status: "completed", winner_seed: seed, decided_by: "bye", updated_at: now })
        .where("id", "=", m.id)
        .execute();
      // A bye never ends a tournament (two entrants at least), so placing it emits nothing.
      await placeWinner(trx, id, m.round, m.position, seed);
    }
    return true;
  });
  const now = await tournamentRow(db, id);
  if (!locked) throw wrongState(row.status === now.status ? row : now, "lock", ["draft"]);
  return tournamentView(db, now);
}

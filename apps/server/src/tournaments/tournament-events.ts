// A tournament's events in the league's feed and on its live topics (`league:{id}`): started,
// each match decided (who won, how, the mean scores), and how it ended. They are written in the
// transaction that makes the change, so each is logged exactly once.
import type { Transaction } from "kysely";

import type { Emit } from "../events/record.ts";
import type { Database, TournamentMatchesTable, TournamentsTable } from "../store/schema.ts";

type Tournament = Pick<TournamentsTable, "id" | "league_id" | "name" | "format">;

async function scope(trx: Transaction<Database>, t: Tournament) {
  const league = await trx
    .selectFrom("leagues")
    .select(["id", "name"])
    .where("id", "=", t.league_id)
    .executeTakeFirstOrThrow();
  const entrants = await trx
    .selectFrom("tournament_entrants")
    .select(["seed", "display_name", "player_id", "policy_version_id"])
    .where("tournament_id", "=", t.id)
    .execute();
  const bySeed = new Map(entrants.map((e) => [e.seed, e]));
  const nameOf = (seed: number | null) =>
    seed === null ? "nobody" : (bySeed.get(seed)?.display_name ?? `seed ${seed}`);
  return { league, entrants, bySeed, nameOf };
}

export async function tournamentStarted(
  trx: Transaction<Database>,
  emit: Emit,
  t: Tournament,
): Promise<void> {
  const { league, entrants } = await scope(trx, t);
  emit({
    type: "tournament_started",
    refs: { league },
    headline: `${t.name} started: ${entrants.length} entrants, ${t.format.replace("_", " ")}`,
    payload: { tournament_id: t.id, format: t.format, entrants: entrants.length },
  });
}

const stage = (m: Pick<TournamentMatchesTable, "bracket" | "round">): string =>
  m.bracket === "final"
    ? "grand final"
    : m.bracket === "main"
      ? `round ${m.round}`
      : `${m.bracket} bracket round ${m.round}`;

export async function tournamentMatchDecided(
  trx: Transaction<Database>,
  emit: Emit,
  t: Tournament,
  match: TournamentMatchesTable,
): Promise<void> {
  const { league, bySeed, nameOf } = await scope(trx, t);
  const winner = match.winner_seed === null ? undefined : bySeed.get(match.winner_seed);
  const how =
    match.status === "void"
      ? "void (no episode completed); the higher seed goes on"
      : `${match.score_a ?? "–"} to ${match.score_b ?? "–"}`;
  emit({
    type: "tournament_match_decided",
    refs: {
      league,
      ...(winner?.player_id ? { player: { id: winner.player_id, name: winner.display_name } } : {}),
    },
    headline: `${t.name}, ${stage(match)}: ${nameOf(match.winner_seed)} beat ${nameOf(match.winner_seed === match.seed_a ? match.seed_b : match.seed_a)}`,
    summary: how,
    payload: {
      tournament_id: t.id,
      match_id: match.id,
      bracket: match.bracket,
      round: match.round,
      position: match.position,
      status: match.status,
      seed_a: match.seed_a,
      seed_b: match.seed_b,
      winner_seed: match.winner_seed,
      decided_by: match.decided_by,
      score_a: match.score_a,
      score_b: match.score_b,
    },
  });
}

export async function tournamentEnded(
  trx: Transaction<Database>,
  emit: Emit,
  t: Tournament,
  status: "completed" | "cancelled" | "failed",
  detail: { winnerSeed?: number | null; error?: string | null } = {},
): Promise<void> {
  const { league, bySeed, nameOf } = await scope(trx, t);
  const winner =
    detail.winnerSeed === undefined || detail.winnerSeed === null
      ? undefined
      : bySeed.get(detail.winnerSeed);
  const headline =
    status === "completed"
      ? `${nameOf(detail.winnerSeed ?? null)} won ${t.name}`
      : status === "cancelled"
        ? `${t.name} was cancelled`
        : `${t.name} failed`;
  emit({
    type: `tournament_${status}`,
    refs: {
      league,
      ...(winner?.player_id ? { player: { id: winner.player_id, name: winner.display_name } } : {}),
    },
    headline,
    ...(detail.error ? { summary: detail.error } : {}),
    payload: {
      tournament_id: t.id,
      status,
      winner_seed: detail.winnerSeed ?? null,
      ...(winner ? { winner_policy_version_id: winner.policy_version_id } : {}),
    },
  });
}

// Every place a command takes a league, division, policy or player: an id passes as it is
// (checked), anything else is a name looked up on the server (see pick.ts for the rule).
import { allItems, type Gauntlet } from "@gauntlet/sdk";

import { checkId } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import type { Deps } from "../factory.ts";
import { writeNote } from "../output.ts";
import { dim } from "../terminal.ts";
import { currentLeague } from "./current-league.ts";
import { pickByName } from "./pick.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The server key the current league is remembered under. */
export function serverKey(client: Gauntlet): string {
  return client.baseUrl ?? "";
}

/** A league's id from its id or name. */
export async function leagueIdOf(client: Gauntlet, value: string, label: string): Promise<string> {
  const typed = value.trim();
  if (typed.startsWith("league_")) return checkId("league", typed, label);
  // Every page: a name may be on any of them.
  const leagues = await allItems(client.leagues.list.iterate());
  return pickByName(leagues, typed, "league", label).id;
}

/**
 * The league given, else the one `gauntlet league use` remembers (said on standard error, so
 * a script's --json output stays clean), else a usage error that says how to give one.
 */
export async function leagueOrCurrent(
  { io, client }: Deps,
  value: string | undefined,
  label: string,
): Promise<string> {
  if (value !== undefined && value.trim() !== "") return leagueIdOf(client, value, label);
  const current = await currentLeague(serverKey(client));
  if (!current)
    throw new CliError(
      `${label}: give a league (its name or id), or choose one with \`gauntlet league use NAME\``,
      EXIT.usage,
    );
  writeNote(io, dim(`league: ${current.name} (the current league; gauntlet league use)`, io.err));
  return current.id;
}

/**
 * A division's id from its id or name; a name is looked for in `league` when given, else in
 * every league, preferring the current league's when several leagues have that name.
 */
export async function divisionIdOf(
  client: Gauntlet,
  value: string,
  label: string,
  league?: string,
): Promise<string> {
  const typed = value.trim();
  if (typed.startsWith("div_")) return checkId("division", typed, label);
  const leagueId = league === undefined ? undefined : await leagueIdOf(client, league, label);
  const divisions = (
    await client.divisions.list(leagueId === undefined ? {} : { league_id: leagueId })
  ).map((d) => ({ id: d.id, name: d.name, detail: d.league.name, leagueId: d.league.id }));
  if (leagueId === undefined) {
    const current = await currentLeague(serverKey(client));
    const inCurrent = divisions.filter((d) => d.leagueId === current?.id);
    if (inCurrent.some((d) => d.name.toLowerCase() === typed.toLowerCase()))
      return pickByName(inCurrent, typed, "division", label).id;
  }
  return pickByName(divisions, typed, "division", label).id;
}

/** A policy's id from its id or name (any policy the caller can see). */
export async function policyIdOf(client: Gauntlet, value: string, label: string): Promise<string> {
  const typed = value.trim();
  if (UUID.test(typed)) return typed;
  const found = await client.policyVersions.search({ name_exact: typed, limit: 500 });
  const policies = new Map<string, { id: string; name: string; detail: string }>();
  for (const v of found.entries)
    policies.set(v.policy_id, {
      id: v.policy_id,
      name: v.name,
      detail: `owner ${v.owner_user_id}`,
    });
  return pickByName([...policies.values()], typed, "policy", label).id;
}

/** One of the caller's players from its id or name. */
export async function playerIdOf(client: Gauntlet, value: string, label: string): Promise<string> {
  const typed = value.trim();
  if (typed.startsWith("ply_")) return checkId("player", typed, label);
  const players = await client.players.list();
  return pickByName(players, typed, "player", label).id;
}

/**
 * The division given (name or id, within --league when given), else the top division of the
 * league given or the current one (said on standard error).
 */
export async function divisionOrTop(
  deps: Deps,
  value: string | undefined,
  league: string | undefined,
  label: string,
): Promise<string> {
  if (value !== undefined && value.trim() !== "")
    return divisionIdOf(deps.client, value, label, league);
  const leagueId = await leagueOrCurrent(deps, league, "--league");
  const [top] = [...(await deps.client.divisions.list({ league_id: leagueId }))].sort(
    (a, b) => a.level - b.level,
  );
  if (!top) throw new CliError(`${label}: the league has no divisions`, EXIT.notFound);
  writeNote(
    deps.io,
    dim(`division: ${top.name} (the league's top; give DIVISION for another)`, deps.io.err),
  );
  return top.id;
}

/**
 * A player with a champion in a league, from its id or name: a lobby's `league_player` seat is
 * played by that champion, so only those players are candidates.
 */
export async function leaguePlayerIdOf(
  client: Gauntlet,
  leagueId: string,
  value: string,
  label: string,
): Promise<string> {
  const typed = value.trim();
  if (typed.startsWith("ply_")) return checkId("player", typed, label);
  const champions = await client.memberships.list({
    league_id: leagueId,
    champions_only: true,
    limit: 500,
  });
  const players = new Map<string, { id: string; name: string; detail: string }>();
  for (const m of champions)
    if (m.player)
      players.set(m.player.id, { id: m.player.id, name: m.player.name, detail: m.division.name });
  return pickByName([...players.values()], typed, "league player", label).id;
}

/** A coworld version's id from its id (cow_…) or its name: that name's canonical version. */
export async function coworldIdOf(client: Gauntlet, value: string, label: string): Promise<string> {
  const typed = value.trim();
  if (typed.startsWith("cow_")) return checkId("coworld", typed, label);
  const [canonical] = await client.coworlds.list({ name: typed, canonical_only: true });
  if (!canonical)
    throw new CliError(
      `${label}: no coworld named '${typed}' (see gauntlet coworld list)`,
      EXIT.notFound,
    );
  return canonical.id;
}

// Who may seat a policy version, and where: consent. A version plays only where its owner put
// it — the leagues (and their tournaments and lobbies) it is a member of, on their coworld — or
// anywhere once its owner marks it open to scrimmage. Its owner seats it anywhere; a league's
// commissioner (or an admin) seats its members on the league's coworld. Seeing a version is not
// enough: a champion seated in someone else's coworld would play, move by move, for whoever
// wrote that coworld.
import type { Kysely } from "kysely";

import { type Identity } from "../auth/identity.ts";
import { invalidInput } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { canSeeLeague, isCommissioner, userIdOf, type LeagueFacts } from "./leagues.ts";

/** Where a seat plays: the episode's coworld, and the league the request plays in, if any. */
export interface SeatingPlace {
  coworldId: string;
  leagueId: string | null;
}

export interface SeatFacts {
  owner_user_id: string;
  open_to_scrimmage: number;
  /** The leagues the version has a membership in, each with its game's coworld. */
  leagues: readonly (LeagueFacts & { id: string; coworld_id: string | null })[];
}

export function canSeatVersion(
  identity: Identity,
  version: SeatFacts,
  place: SeatingPlace,
): boolean {
  if (userIdOf(identity) === version.owner_user_id || version.open_to_scrimmage === 1) return true;
  return version.leagues.some(
    (league) =>
      league.coworld_id === place.coworldId &&
      canSeeLeague(identity, league) &&
      (league.id === place.leagueId || isCommissioner(identity, league)),
  );
}

/** The facts canSeatVersion needs, for some versions (absent ids are absent from the map). */
export async function seatFacts(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, SeatFacts>> {
  const out = new Map<string, SeatFacts>();
  if (ids.length === 0) return out;
  const owners = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "p.owner_user_id", "pv.open_to_scrimmage"])
    .where("pv.id", "in", [...ids])
    .execute();
  const leagues = await db
    .selectFrom("league_policy_memberships as m")
    .innerJoin("leagues as l", "l.id", "m.league_id")
    .leftJoin("games as g", "g.id", "l.game_id")
    .select([
      "m.policy_version_id",
      "l.id",
      "l.public",
      "l.hidden",
      "l.disabled_at",
      "l.commissioner_user_id",
      "g.coworld_id",
    ])
    .where("m.policy_version_id", "in", [...ids])
    .execute();
  for (const o of owners)
    out.set(o.id, {
      owner_user_id: o.owner_user_id,
      open_to_scrimmage: o.open_to_scrimmage,
      leagues: [],
    });
  for (const l of leagues) {
    const facts = out.get(l.policy_version_id);
    if (facts) (facts.leagues as SeatFacts["leagues"][number][]).push(l);
  }
  return out;
}

/** The words of a refused seat: the same for an unknown id and one the caller may not seat here. */
export function unseatableMessage(policyVersionId: string): string {
  return `no policy version ${policyVersionId} you may seat here (your own versions, versions open to scrimmage, or a league's members in that league on its coworld)`;
}

/**
 * Refuses (422 at the slot's location) a seat whose version the caller may not seat at this
 * place. An unknown id reads the same as a refused one, so the answer does not tell which
 * private ids exist.
 */
export async function assertSeatable(
  db: Kysely<Database>,
  identity: Identity,
  place: SeatingPlace,
  seats: readonly { policyVersionId: string; loc: readonly (string | number)[] }[],
): Promise<void> {
  const facts = await seatFacts(
    db,
    seats.map((s) => s.policyVersionId),
  );
  for (const seat of seats) {
    const version = facts.get(seat.policyVersionId);
    if (!version || !canSeatVersion(identity, version, place))
      throw invalidInput(
        [...seat.loc],
        unseatableMessage(seat.policyVersionId),
        "value_error",
        seat.policyVersionId,
      );
  }
}

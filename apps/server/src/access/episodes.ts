// Who may see an episode and read its seats. An episode of a league is seen by whoever sees the
// league. A coworld's certification (its own bundled players, no user's policy) is seen by
// everyone, like the coworld and its certification state. Any other episode — an evaluation's,
// a tournament wave's, a solo play session's, a bulk upload's — is seen like the evaluation it
// belongs to: by its requester, the owners of the policies in its seats, and admins. A seat's own files (its log,
// its artifact) are its policy owner's; a seat without a policy (a bundled or human player) is
// the requester's.
import type { Kysely } from "kysely";

import type { Identity } from "../auth/identity.ts";
import type { Database, EpisodeRequestsTable } from "../store/schema.ts";
import { actsAsAdmin } from "./admin.ts";
import { canSeeLeague, userIdOf, visibleLeagueIds, type LeagueFacts } from "./leagues.ts";

const CERTIFICATION = "certification";

export interface EpisodeFacts {
  episode: Pick<EpisodeRequestsTable, "league_id" | "requester_user_id" | "purpose">;
  /** The episode's league (undefined when it has none, or it is gone). */
  league: LeagueFacts | undefined;
  /** The owners of the policy versions in its seats. */
  seatOwners: readonly string[];
}

export function canSeeEpisode(identity: Identity, facts: EpisodeFacts): boolean {
  if (actsAsAdmin(identity)) return true;
  if (facts.episode.league_id !== null)
    return facts.league !== undefined && canSeeLeague(identity, facts.league);
  if (facts.episode.purpose === CERTIFICATION) return true;
  const me = userIdOf(identity);
  return me !== null && (facts.episode.requester_user_id === me || facts.seatOwners.includes(me));
}

/** The ids of the episodes the caller may see (canSeeEpisode as SQL). */
export function visibleEpisodeIds(db: Kysely<Database>, identity: Identity) {
  const q = db.selectFrom("episode_requests").select("id");
  if (actsAsAdmin(identity)) return q;
  const me = userIdOf(identity);
  return q.where((eb) =>
    eb.or([
      eb("league_id", "in", visibleLeagueIds(db, identity)),
      eb.and([eb("league_id", "is", null), eb("purpose", "=", CERTIFICATION)]),
      ...(me === null
        ? []
        : [
            eb.and([
              eb("league_id", "is", null),
              eb.or([
                eb("requester_user_id", "=", me),
                eb(
                  "id",
                  "in",
                  db
                    .selectFrom("episode_participants as ep")
                    .innerJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
                    .innerJoin("policies as p", "p.id", "pv.policy_id")
                    .select("ep.episode_request_id")
                    .where("p.owner_user_id", "=", me),
                ),
              ]),
            ]),
          ]),
    ]),
  );
}

/** The facts canSeeEpisode needs, for some episodes. */
export async function episodeFacts(
  db: Kysely<Database>,
  rows: readonly Pick<EpisodeRequestsTable, "id" | "league_id" | "requester_user_id" | "purpose">[],
): Promise<Map<string, EpisodeFacts>> {
  const out = new Map<string, EpisodeFacts>();
  if (rows.length === 0) return out;
  const leagueIds = [...new Set(rows.flatMap((r) => (r.league_id ? [r.league_id] : [])))];
  const leagues = new Map(
    leagueIds.length
      ? (
          await db
            .selectFrom("leagues")
            .select(["id", "public", "hidden", "disabled_at", "commissioner_user_id"])
            .where("id", "in", leagueIds)
            .execute()
        ).map((l) => [l.id, l])
      : [],
  );
  const owners = await db
    .selectFrom("episode_participants as ep")
    .innerJoin("policy_versions as pv", "pv.id", "ep.policy_version_id")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["ep.episode_request_id", "p.owner_user_id"])
    .where(
      "ep.episode_request_id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  for (const row of rows)
    out.set(row.id, {
      episode: row,
      league: row.league_id ? leagues.get(row.league_id) : undefined,
      seatOwners: owners.filter((o) => o.episode_request_id === row.id).map((o) => o.owner_user_id),
    });
  return out;
}

/** A seat's log and artifact: the owner of its policy, or the requester for a seat without one; admins all. */
export function canReadSeat(
  identity: Identity,
  episode: Pick<EpisodeRequestsTable, "requester_user_id">,
  seat: { owner_user_id: string | null },
): boolean {
  if (actsAsAdmin(identity)) return true;
  const me = userIdOf(identity);
  if (me === null) return false;
  return seat.owner_user_id !== null ? seat.owner_user_id === me : episode.requester_user_id === me;
}

/**
 * Whether `identity` may read an episode's game log (`logs`): the coworld's owner, the requester,
 * or an admin. A game is uploaded code like a policy, and its log is whatever it printed — a
 * hostile game prints what it could read — so it is not public with the episode.
 */
export function canReadGameLog(
  identity: Identity,
  facts: { requesterUserId: string | null; coworldOwnerId: string | null },
): boolean {
  if (actsAsAdmin(identity)) return true;
  const me = userIdOf(identity);
  return me !== null && (facts.requesterUserId === me || facts.coworldOwnerId === me);
}

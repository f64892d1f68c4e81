// The ledger's operations: recompute a division's ratings (commissioner or admin), void an
// episode with a reason (the same), and what beats what (visible as the division's standings).
import type { Kysely, Transaction } from "kysely";

import type { DivisionPairwise, EpisodeVoid, RatingsRecompute } from "@gauntlet/core";

import { isCommissioner } from "../../access/leagues.ts";
import type { AuthenticatedIdentity, Identity } from "../../auth/identity.ts";
import type { EventBus } from "../../events/bus.ts";
import { withEvents } from "../../events/record.ts";
import { nowIso, parseJson } from "../../shared/clock.ts";
import { conflict, forbidden, ifNotFound, notFound } from "../../shared/errors.ts";
import type { Database, DivisionsTable, LeaguesTable } from "../../store/schema.ts";
import { ladderOrDefault } from "../ladder.ts";
import { lockLeague } from "../league-lock.ts";
import { visibleDivision } from "../visibility.ts";
import { pairwise } from "./pairwise.ts";
import { recomputeDivision } from "./recompute.ts";
import { recordedEpisodes, scoredEpisodes } from "./scored-episodes.ts";

/** Newest settled rounds the pairwise counts read (bounds a read's cost). */
export const PAIRWISE_ROUNDS = 1_000;

/** The league, locked for the rest of the transaction, and the division; `missing()` is thrown
 * when either is gone. */
async function lockedDivision(
  trx: Transaction<Database>,
  leagueId: string,
  divisionId: string,
  missing: () => Error,
): Promise<{ locked: LeaguesTable; division: DivisionsTable }> {
  const locked = await lockLeague(trx, leagueId);
  const division = await trx
    .selectFrom("divisions")
    .selectAll()
    .where("id", "=", divisionId)
    .executeTakeFirst();
  if (!locked || !division) throw missing();
  return { locked, division };
}

export async function recomputeRatings(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  divisionId: string,
  dryRun: boolean,
): Promise<RatingsRecompute> {
  const { league } = await visibleDivision(db, identity, divisionId);
  if (!isCommissioner(identity, league))
    throw forbidden(
      `Only the commissioner of league ${league.id} or an admin may recompute its ratings.`,
    );
  return withEvents(db, bus, async (trx, emit) => {
    // Under the league's lock: no round settles while the ratings are replayed and stored.
    const { locked, division } = await lockedDivision(trx, league.id, divisionId, () =>
      notFound("division", divisionId),
    );
    return recomputeDivision(trx, emit, locked, ladderOrDefault(locked), division, {
      dryRun,
      reason: "Recomputed on request.",
    });
  });
}

export async function voidEpisode(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  episodeId: string,
  reason: string,
): Promise<EpisodeVoid> {
  const episode = await db
    .selectFrom("episode_requests")
    .select(["id", "division_id", "round_id"])
    .where("id", "=", episodeId)
    .executeTakeFirst();
  // Only league round episodes are in a ledger; others are not this operation's to see.
  if (!episode || episode.division_id === null || episode.round_id === null)
    throw notFound("episode request", episodeId);
  const { league } = await ifNotFound(visibleDivision(db, identity, episode.division_id), () =>
    notFound("episode request", episodeId),
  );
  if (!isCommissioner(identity, league))
    throw forbidden(
      `Only the commissioner of league ${league.id} or an admin may void its episodes.`,
    );
  const divisionId = episode.division_id;
  return withEvents(db, bus, async (trx, emit) => {
    const { locked, division } = await lockedDivision(trx, league.id, divisionId, () =>
      notFound("episode request", episodeId),
    );
    const already = await trx
      .selectFrom("episode_voids")
      .select("reason")
      .where("episode_request_id", "=", episodeId)
      .executeTakeFirst();
    if (already) throw conflict(`Episode ${episodeId} is already void: ${already.reason}`);
    const at = nowIso();
    await trx
      .insertInto("episode_voids")
      .values({
        episode_request_id: episodeId,
        reason,
        voided_by_user_id: identity.userId,
        created_at: at,
      })
      .execute();
    emit({
      type: "episode_voided",
      refs: { league: locked, division },
      roundId: episode.round_id,
      episodeRequestId: episodeId,
      headline: `${division.name}: an episode was voided`,
      summary: reason,
      payload: { episode_request_id: episodeId, reason },
    });
    const recompute = await recomputeDivision(
      trx,
      emit,
      locked,
      ladderOrDefault(locked),
      division,
      { dryRun: false, reason: `Episode ${episodeId} voided: ${reason}` },
    );
    return {
      episode_request_id: episodeId,
      reason,
      voided_by: identity.userId,
      voided_at: at,
      recompute,
    };
  });
}

export async function divisionPairwise(
  db: Kysely<Database>,
  identity: Identity,
  divisionId: string,
): Promise<DivisionPairwise> {
  const { league, division } = await visibleDivision(db, identity, divisionId);
  const settings = ladderOrDefault(league);
  // The division's own rounds only (no rating replay): a read must stay cheap.
  const rounds = await db
    .selectFrom("rounds")
    .select("id")
    .where("division_id", "=", division.id)
    .where("status", "=", "completed")
    .orderBy("completed_at", "desc")
    .orderBy("id", "desc")
    .limit(PAIRWISE_ROUNDS)
    .execute();
  const recorded = await recordedEpisodes(
    db,
    rounds.map((r) => r.id),
  );
  const episodes = [...recorded.values()].flat().flatMap((e) => scoredEpisodes(e, settings));
  const stored = await db
    .selectFrom("division_leaderboards")
    .select("rows")
    .where("division_id", "=", division.id)
    .executeTakeFirst();
  const rows = stored ? parseJson<{ player_id: string; player_name: string }[]>(stored.rows) : [];
  return pairwise(division.id, rows, episodes);
}

// The ledger's operations: recompute a division's ratings (commissioner or admin), void an
// episode with a reason (the same), and what beats what (visible as the division's standings).
import type { Kysely } from "kysely";

import type { DivisionPairwise, EpisodeVoid, RatingsRecompute } from "@gauntlet/core";

import { isCommissioner } from "../../access/leagues.ts";
import type { AuthenticatedIdentity, Identity } from "../../auth/identity.ts";
import type { EventBus } from "../../events/bus.ts";
import { withEvents } from "../../events/record.ts";
import { nowIso } from "../../shared/clock.ts";
import { conflict, forbidden, notFound } from "../../shared/errors.ts";
import type { Database } from "../../store/schema.ts";
import { ladderOrDefault } from "../ladder.ts";
import { lockLeague } from "../league-lock.ts";
import { visibleDivision } from "../visibility.ts";
import { pairwise } from "./pairwise.ts";
import { recomputeDivision, replayLeague } from "./recompute.ts";

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
    const locked = await lockLeague(trx, league.id);
    const division = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", divisionId)
      .executeTakeFirst();
    if (!locked || !division) throw notFound("division", divisionId);
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
  const { league } = await visibleDivision(db, identity, episode.division_id).catch(() => {
    throw notFound("episode request", episodeId);
  });
  if (!isCommissioner(identity, league))
    throw forbidden(
      `Only the commissioner of league ${league.id} or an admin may void its episodes.`,
    );
  const divisionId = episode.division_id;
  return withEvents(db, bus, async (trx, emit) => {
    const locked = await lockLeague(trx, league.id);
    const division = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", divisionId)
      .executeTakeFirst();
    if (!locked || !division) throw notFound("episode request", episodeId);
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
  return db.transaction().execute(async (trx) => {
    const replay = await replayLeague(trx, league.id, ladderOrDefault(league), division.id);
    const stored = await trx
      .selectFrom("division_leaderboards")
      .select("rows")
      .where("division_id", "=", division.id)
      .executeTakeFirst();
    const rows = stored
      ? (JSON.parse(stored.rows) as { player_id: string; player_name: string }[])
      : [];
    return pairwise(division.id, rows, replay.divisionEpisodes);
  });
}

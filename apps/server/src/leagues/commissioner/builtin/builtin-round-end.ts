// A built-in round's end, over the commissioner protocol: once its episodes are final, the
// platform resumes the ladder commissioner with a `round_start` whose `completed_episodes` are the
// round's results (as it resumes a recorded round) and reads its `round_complete` through the same
// session checks as a coworld commissioner's. Called inside the settling transaction, under the
// league's lock, after the round was claimed: what it reads is the round as it counts.
import type { Transaction } from "kysely";

import {
  CoworldManifest,
  type LadderSettings,
  type RoundComplete,
  type RoundStart,
} from "@gauntlet/core";

import { parseJson } from "../../../shared/clock.ts";
import type { Database, DivisionsTable, LeaguesTable, RoundsTable } from "../../../store/schema.ts";
import { completedRounds } from "../../promotion-moves.ts";
import { promotionDue, type RatingState, type SettledEpisode } from "../../rules/index.ts";
import { standingInputs } from "../../standings-write.ts";
import {
  divisionInfos,
  leagueInfo,
  membershipInfos,
  recentResults,
  variantInfos,
} from "../context.ts";
import { memoryChannel } from "../memory-channel.ts";
import { endedEpisodes } from "../outcomes.ts";
import { CommissionerSession } from "../session.ts";
import { toWire } from "../wire-ids.ts";
import { sessionTap, type BuiltinTap } from "./builtin-messages.ts";
import { ladderEndCommissioner, type PromotionFacts } from "./ladder-round-end.ts";

/** A built-in commissioner answers at once; this only bounds a bug. */
const REPLY_MS = 10_000;

export interface BuiltinEndAsk {
  league: LeaguesTable;
  division: DivisionsTable;
  round: RoundsTable;
  settings: LadderSettings;
  /** The round's episodes as the rating rule counts them (at least one). */
  episodes: readonly SettledEpisode[];
  tap?: BuiltinTap | undefined;
}

/** The player each seated version of the round played for (from its pools). */
async function championsOf(
  trx: Transaction<Database>,
  roundId: string,
): Promise<Map<string, string>> {
  const pools = await trx
    .selectFrom("pools")
    .select(["members"])
    .where("round_id", "=", roundId)
    .execute();
  const out = new Map<string, string>();
  for (const pool of pools)
    for (const m of parseJson<{ player_id: string | null; policy_version_id: string }[]>(
      pool.members,
    ))
      if (m.player_id) out.set(m.player_id, m.policy_version_id);
  return out;
}

/** The rated players' ratings before the round (what the rating rule starts from). */
async function ratingStates(
  trx: Transaction<Database>,
  leagueId: string,
  episodes: readonly SettledEpisode[],
): Promise<Map<string, RatingState>> {
  const ids = new Set(
    episodes.flatMap((e) => e.participants.filter((p) => !p.anchor).map((p) => p.subjectId)),
  );
  if (ids.size === 0) return new Map();
  const rows = await trx
    .selectFrom("ladder_ratings")
    .select(["player_id", "state"])
    .where("league_id", "=", leagueId)
    .where("player_id", "in", [...ids])
    .execute();
  return new Map(
    rows.flatMap((r) => (r.state === null ? [] : [[r.player_id, parseJson<RatingState>(r.state)]])),
  );
}

/** The boundary below the division, when the promotion period comes round with this round. */
async function promotionFacts(
  trx: Transaction<Database>,
  settings: LadderSettings,
  division: DivisionsTable,
): Promise<PromotionFacts | null> {
  const roundsCompleted = await completedRounds(trx, division.id);
  if (!promotionDue(settings.promotion, roundsCompleted)) return null;
  const lower = await trx
    .selectFrom("divisions")
    .selectAll()
    .where("league_id", "=", division.league_id)
    .where("type", "=", "competition")
    .where("archived_at", "is", null)
    .where("level", ">", division.level)
    .orderBy("level")
    .executeTakeFirst();
  if (!lower) return null;
  return {
    roundsCompleted,
    upper: { divisionId: division.id, inputs: await standingInputs(trx, division) },
    lower: { divisionId: lower.id, inputs: await standingInputs(trx, lower) },
  };
}

/** The round's completed episodes as the protocol's episode results. */
async function completedEpisodes(
  trx: Transaction<Database>,
  roundId: string,
): Promise<RoundStart["completed_episodes"]> {
  const { messages } = await endedEpisodes(trx, roundId, new Set());
  return messages.flatMap((m) =>
    m.type === "episode_result"
      ? [{ request_id: m.request_id, scores: m.scores, game_results: m.game_results ?? null }]
      : [],
  );
}

export async function askBuiltinEnd(
  trx: Transaction<Database>,
  ask: BuiltinEndAsk,
): Promise<RoundComplete> {
  const { league, division, round, settings } = ask;
  const tap = sessionTap(ask.tap);
  const program = ladderEndCommissioner({
    settings,
    divisionId: division.id,
    episodes: ask.episodes,
    champions: await championsOf(trx, round.id),
    states: await ratingStates(trx, league.id, ask.episodes),
    promotion: await promotionFacts(trx, settings, division),
  });
  const session = new CommissionerSession(memoryChannel(program), (m) => tap("sent", m));
  try {
    const coworld = await trx
      .selectFrom("coworlds")
      .select("manifest")
      .where("id", "=", round.coworld_id)
      .executeTakeFirst();
    const manifest = CoworldManifest.safeParse(parseJson(coworld?.manifest ?? "null"));
    await session.send({
      type: "round_start",
      round_id: toWire(round.id),
      round_number: round.round_number,
      league: leagueInfo(league),
      divisions: await divisionInfos(trx, league.id),
      memberships: await membershipInfos(trx, league.id, { withPreferences: false }),
      recent_results: await recentResults(trx, league.id),
      variants: manifest.success ? variantInfos(manifest.data) : [],
      completed_episodes: await completedEpisodes(trx, round.id),
      state: null,
    });
    const answer = await session.expect(["round_complete"], REPLY_MS);
    tap("received", answer);
    return answer;
  } finally {
    await session.close("round complete");
  }
}

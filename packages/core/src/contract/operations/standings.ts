// Division standings (docs/api.md, "League play in short"): served as stored when a round settles.
import { z } from "zod";

import { QueryBoolean } from "../../models/common.ts";
import { EpisodeRequestId } from "../../models/episode.ts";
import { DivisionLeaderboard, DivisionLeaderboards } from "../../models/leaderboard.ts";
import { Division, DivisionIdParams, League } from "../../models/league.ts";
import {
  DivisionPairwise,
  EpisodeVoid,
  RatingsRecompute,
  RecomputeRatingsRequest,
  VoidEpisodeRequest,
} from "../../models/ledger.ts";
import { defineOperation } from "../operation.ts";

/** A division named by its league's and its own name or id, with its standings: one read. */
export const DivisionStandingsView = z
  .object({
    league: League,
    division: Division,
    /** The league's divisions as a picker lists them: competition by level, then staging. */
    divisions: z.array(Division),
    leaderboard: DivisionLeaderboard,
  })
  .meta({ id: "DivisionStandingsView" });
export type DivisionStandingsView = z.infer<typeof DivisionStandingsView>;

export const standingsOperations = {
  getDivisionStandingsView: defineOperation({
    id: "getDivisionStandingsView",
    method: "GET",
    path: "/v2/standings",
    tag: "Leagues",
    summary: "A division by name or id, its league, the league's divisions and its standings",
    description:
      "What a viewer's first screen needs, in one read. `league` and `division` are each an id or a name (case-insensitive, the whole name first, then a prefix), among the leagues the caller can see that are not disabled (game of the week first, then by name) and their divisions that are neither hidden nor archived. `league` alone gives its top competition division; `division` alone the first league's division that matches. `leaderboard` is as `…/leaderboard?include_recent_rounds=true` answers. 404 when nothing matches; 422 without either.",
    auth: "optional",
    complexity: 20,
    query: z.object({
      league: z.string().trim().min(1).max(200).optional(),
      division: z.string().trim().min(1).max(200).optional(),
    }),
    status: 200,
    response: DivisionStandingsView,
  }),
  getDivisionLeaderboard: defineOperation({
    id: "getDivisionLeaderboard",
    method: "GET",
    path: "/v2/divisions/{division_id}/leaderboard",
    tag: "Leagues",
    summary: "The division's standings, best first, or null when it has none",
    description:
      "Precomputed when a round settles (and when players join, leave or move). Each row's `recent_rounds` (newest first) are filled with `include_recent_rounds=true`, empty otherwise.",
    auth: "optional",
    access: "owner",
    complexity: 10,
    params: DivisionIdParams,
    query: z.object({ include_recent_rounds: QueryBoolean.optional() }),
    status: 200,
    response: DivisionLeaderboard,
  }),
  getDivisionLeaderboards: defineOperation({
    id: "getDivisionLeaderboards",
    method: "GET",
    path: "/v2/divisions/{division_id}/leaderboards",
    tag: "Leagues",
    summary: "The division's leaderboard views",
    auth: "optional",
    access: "owner",
    complexity: 20,
    params: DivisionIdParams,
    status: 200,
    response: DivisionLeaderboards,
  }),
  recomputeDivisionRatings: defineOperation({
    id: "recomputeDivisionRatings",
    method: "POST",
    path: "/v2/divisions/{division_id}/ratings/recompute",
    tag: "Leagues",
    summary: "Recompute the division's ratings from the record (commissioner)",
    description:
      "Replays the league's settled rounds in the order they settled, scoring each episode as a round settles it (failures no seat caused, cancellations and voids are not scored; a seat's own failure is a loss for that seat only), and compares the result with the stored ratings of the division's players. `dry_run` (the default) answers the differences; otherwise they are stored, the standings refreshed and a `ratings_recomputed` event written.",
    auth: "required",
    access: "owner",
    complexity: 50,
    params: DivisionIdParams,
    body: RecomputeRatingsRequest,
    bodyOptional: true,
    status: 200,
    response: RatingsRecompute,
  }),
  voidEpisode: defineOperation({
    id: "voidEpisode",
    method: "POST",
    path: "/v2/episode-requests/{episode_request_id}/void",
    tag: "Leagues",
    summary: "Void a league episode with a reason (commissioner)",
    description:
      "The episode stops counting: the division's ratings are recomputed without it and applied, and an `episode_voided` event gives the reason. Voiding twice is refused (409).",
    auth: "required",
    access: "owner",
    complexity: 50,
    params: z.object({ episode_request_id: EpisodeRequestId }),
    body: VoidEpisodeRequest,
    status: 200,
    response: EpisodeVoid,
  }),
  getDivisionPairwise: defineOperation({
    id: "getDivisionPairwise",
    method: "GET",
    path: "/v2/divisions/{division_id}/pairwise",
    tag: "Leagues",
    summary: "What beats what: the division's pairwise results with their counts",
    description:
      "For each ordered pair of the division's ranked players that met in a scored round episode: how often the first finished ahead, behind, or level. Visible as the division's standings are.",
    auth: "optional",
    access: "owner",
    complexity: 20,
    params: DivisionIdParams,
    status: 200,
    response: DivisionPairwise,
  }),
} as const;

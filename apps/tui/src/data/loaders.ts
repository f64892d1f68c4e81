// What the detail screens load, through the SDK.
import type { EpisodeRequest, RoundDetail } from "@gauntlet/core";
import { isNotFoundError, type Gauntlet, type ResultOf } from "@gauntlet/sdk";

/** Which seats of an episode left a log or an artifact. */
export type PolicyArtifactEntry = ResultOf<"listPolicyArtifacts">[number];

export interface RoundData {
  round: RoundDetail;
  episodes: EpisodeRequest[];
}

export interface EpisodeData {
  episode: EpisodeRequest;
  artifacts: PolicyArtifactEntry[];
}

export async function loadPlayerEpisodes(
  client: Gauntlet,
  playerId: string,
  divisionId: string,
  signal: AbortSignal,
): Promise<EpisodeRequest[]> {
  return (
    await client.episodeRequests.list(
      { player_id: playerId, division_id: divisionId, limit: 50 },
      { signal },
    )
  ).entries;
}

export async function loadRound(
  client: Gauntlet,
  roundId: string,
  signal: AbortSignal,
): Promise<RoundData> {
  const [round, episodes] = await Promise.all([
    client.rounds.get({ round_id: roundId }, { signal }),
    client.episodeRequests.list({ round_id: roundId, limit: 200 }, { signal }),
  ]);
  return { round, episodes: episodes.entries };
}

export async function loadEpisode(
  client: Gauntlet,
  episodeId: string,
  signal: AbortSignal,
): Promise<EpisodeData> {
  const episode = await client.episodeRequests.get({ episode_request_id: episodeId }, { signal });
  // Which seats left a log; the episode is worth showing without it where the server has no
  // such list (404). Any other failure is shown: an empty list would say no seat left one.
  let artifacts: PolicyArtifactEntry[] = [];
  if (episode.status === "completed" || episode.status === "failed") {
    try {
      artifacts = await client.episodeRequests.listPolicyArtifacts(
        { episode_request_id: episodeId },
        { signal },
      );
    } catch (error) {
      if (!isNotFoundError(error)) throw error;
    }
  }
  return { episode, artifacts };
}

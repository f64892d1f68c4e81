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

/** A player's view of one division: their episodes there and that division's rounds. */
export interface PlayerData {
  /** As the server lists them (by when each was asked for). */
  episodes: EpisodeRequest[];
  /** The division's newest rounds: a player's recent rounds elsewhere (before a move) are not its. */
  divisionRoundIds: ReadonlySet<string>;
}

export async function loadPlayer(
  client: Gauntlet,
  playerId: string,
  divisionId: string,
  signal: AbortSignal,
): Promise<PlayerData> {
  const [episodes, rounds] = await Promise.all([
    client.episodeRequests.list(
      { player_id: playerId, division_id: divisionId, limit: 50 },
      { signal },
    ),
    client.rounds.list({ division_id: divisionId, limit: 50 }, { signal }),
  ]);
  return {
    episodes: episodes.entries,
    divisionRoundIds: new Set(rounds.entries.map((r) => r.id)),
  };
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

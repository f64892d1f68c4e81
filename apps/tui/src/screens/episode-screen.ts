// An episode: who played (seat, player, policy, score), its state, and where to find its replay
// and logs (addresses to open or curl).
import { Box, Text } from "ink";
import { createElement as h } from "react";

import { Pane } from "../components/pane.ts";
import { PendingPane } from "../components/pending-pane.ts";
import { useTheme } from "../components/theme.ts";
import { operationUrl } from "../data/addresses.ts";
import type { EpisodeData } from "../data/loaders.ts";
import type { Notices } from "../data/notices.ts";
import { useLoad } from "../hooks/use-load.ts";
import { formatClock, formatScore } from "../state/format.ts";

export interface EpisodeScreenProps {
  load: (signal: AbortSignal) => Promise<EpisodeData>;
  /** Changes when the watched division has news: the episode is loaded again. */
  refreshKey: unknown;
  baseUrl: string;
  notices: Notices;
  width: number;
  height: number;
}

export function episodeAddresses(
  baseUrl: string,
  data: EpisodeData,
): { label: string; url: string }[] {
  const { episode, artifacts } = data;
  const id = episode.id;
  const addresses: { label: string; url: string }[] = [];
  if (episode.status === "completed") {
    addresses.push({
      label: "replay",
      url:
        episode.replay_url ??
        operationUrl(baseUrl, "getEpisodeArtifact", {
          episode_request_id: id,
          artifact_type: "replay",
        }),
    });
    addresses.push({
      label: "results",
      url: operationUrl(baseUrl, "getEpisodeArtifact", {
        episode_request_id: id,
        artifact_type: "results",
      }),
    });
  }
  if (episode.status === "completed" || episode.status === "failed")
    addresses.push({
      label: "logs",
      url: operationUrl(baseUrl, "getEpisodeArtifact", {
        episode_request_id: id,
        artifact_type: "logs",
      }),
    });
  if (episode.status === "failed")
    addresses.push({
      label: "error",
      url: operationUrl(baseUrl, "getEpisodeArtifact", {
        episode_request_id: id,
        artifact_type: "error-info",
      }),
    });
  for (const seat of artifacts) {
    if (seat.has_log && seat.policy_version_id !== null) {
      addresses.push({
        label: `seat ${seat.position} log`,
        url: operationUrl(baseUrl, "getPolicyLog", {
          episode_request_id: id,
          policy_version_id: seat.policy_version_id,
          idx: seat.position,
        }),
      });
    }
  }
  return addresses;
}

/** How often an episode still in play is loaded again (besides on each live event). */
export const EPISODE_POLL_MS = 3_000;

/** An episode whose result and logs can no longer change. */
export function episodeSettled({ episode }: EpisodeData): boolean {
  return (
    episode.status === "completed" || episode.status === "failed" || episode.status === "cancelled"
  );
}

export function EpisodeScreen({
  load,
  refreshKey,
  baseUrl,
  notices,
  width,
  height,
}: EpisodeScreenProps) {
  const theme = useTheme();
  const data = useLoad(notices, "episode", load, {
    key: refreshKey,
    everyMs: EPISODE_POLL_MS,
    settled: episodeSettled,
  });
  if (data.state !== "ready") return h(PendingPane, { title: "Episode", data, width, height });
  const { episode } = data.value;
  const scores = new Map(episode.scores.map((s) => [s.position, s.score]));
  const statusColor =
    episode.status === "completed"
      ? theme.good
      : episode.status === "failed" || episode.status === "cancelled"
        ? theme.bad
        : theme.warn;
  const addresses = episodeAddresses(baseUrl, data.value);
  return h(
    Pane,
    { title: "Episode", note: episode.id, focused: true, width, height },
    h(
      Text,
      { wrap: "truncate-end" },
      h(Text, { color: statusColor, bold: true }, episode.status),
      `  created ${formatClock(episode.created_at)} · updated ${formatClock(episode.updated_at)}`,
      episode.round_id ? h(Text, { color: theme.muted }, `  ${episode.round_id}`) : null,
    ),
    episode.error
      ? h(
          Text,
          { color: theme.bad, wrap: "truncate-end" },
          `${episode.error_type ?? "error"}: ${episode.error}`,
        )
      : null,
    h(Text, { bold: true, color: theme.muted }, "Participants"),
    ...episode.participants.map((p) => {
      const score = scores.get(p.position);
      return h(
        Box,
        { key: String(p.position), height: 1 },
        h(
          Text,
          { wrap: "truncate-end" },
          `  seat ${p.position}  `,
          h(Text, { bold: true }, (p.player_name ?? "—").padEnd(20)),
          `  ${p.policy_name}${p.version !== null ? ` v${p.version}` : ""}`,
          score !== undefined ? `  score ${formatScore(score)}` : "",
        ),
      );
    }),
    h(Text, { bold: true, color: theme.muted }, "Addresses"),
    ...(addresses.length === 0
      ? [h(Text, { key: "none", color: theme.muted }, "  none until the episode ends")]
      : // Addresses wrap rather than lose their end: a cut address is of no use.
        addresses.map((a) =>
          h(
            Box,
            { key: a.label },
            h(Box, { width: 14, flexShrink: 0 }, h(Text, null, `  ${a.label}`)),
            h(
              Box,
              { flexGrow: 1, flexShrink: 1 },
              h(Text, { color: theme.accent, wrap: "wrap" }, a.url),
            ),
          ),
        )),
  );
}

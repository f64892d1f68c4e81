// A round: its state, its results (rank, player, score) and its episodes (Enter opens one).
import { Box, Text, useInput } from "ink";
import { createElement as h, type ReactElement } from "react";

import { EpisodeList } from "../components/episode-list.ts";
import { Pane, paneBodyRows } from "../components/pane.ts";
import { PendingPane } from "../components/pending-pane.ts";
import { useTheme } from "../components/theme.ts";
import type { RoundData } from "../data/loaders.ts";
import type { Notices } from "../data/notices.ts";
import { useListCursor } from "../hooks/use-list-cursor.ts";
import { useLoad } from "../hooks/use-load.ts";
import { formatClock, formatScore } from "../state/format.ts";
import { waitingNote } from "../state/round-waiting.ts";

/** How often a round still in play is loaded again (besides on each live event). */
export const ROUND_POLL_MS = 3_000;

/** A round whose state and episodes can no longer change. */
export function roundSettled({ round, episodes }: RoundData): boolean {
  return (
    (round.status === "completed" || round.status === "failed") &&
    episodes.every(
      (e) => e.status === "completed" || e.status === "failed" || e.status === "cancelled",
    )
  );
}

export interface RoundScreenProps {
  load: (signal: AbortSignal) => Promise<RoundData>;
  /** Changes when the watched division has news: the round is loaded again. */
  refreshKey: unknown;
  notices: Notices;
  width: number;
  height: number;
  active: boolean;
  onOpenEpisode: (episodeId: string) => void;
}

export function RoundScreen({
  load,
  refreshKey,
  notices,
  width,
  height,
  active,
  onOpenEpisode,
}: RoundScreenProps): ReactElement {
  const theme = useTheme();
  const data = useLoad(notices, "round", load, {
    key: refreshKey,
    everyMs: ROUND_POLL_MS,
    settled: roundSettled,
  });
  const episodes = data.state === "ready" ? data.value.episodes : [];
  const cursor = useListCursor(episodes.length);
  useInput(
    (input, key) => {
      if (cursor.handle(input, key)) return;
      const episode = episodes[cursor.index];
      if (key.return && episode) onOpenEpisode(episode.id);
    },
    { isActive: active },
  );
  if (data.state !== "ready") return h(PendingPane, { title: "Round", data, width, height });
  const { round } = data.value;
  const results = [...round.results].sort((a, b) => a.rank - b.rank);
  const resultsHeight = Math.min(Math.max(4, results.length + 4), Math.floor(height / 2));
  return h(
    Box,
    { flexDirection: "column", width, height },
    h(
      Pane,
      {
        title: `Round ${round.round_number} · ${round.division.name}`,
        note: `${round.status} · started ${formatClock(round.started_at)}${round.completed_at ? ` · ended ${formatClock(round.completed_at)}` : ""}${waitingNote(round) ? ` · ${waitingNote(round) ?? ""}` : ""}`,
        focused: false,
        width,
        height: resultsHeight,
      },
      round.error ? h(Text, { color: theme.bad, wrap: "truncate-end" }, round.error) : null,
      results.length === 0
        ? h(Text, { color: theme.muted }, "No results yet: they come when the round settles.")
        : h(
            Box,
            { flexDirection: "column" },
            ...results
              .slice(0, paneBodyRows(resultsHeight))
              .map((r) =>
                h(
                  Text,
                  { key: r.id, wrap: "truncate-end" },
                  `${String(r.rank).padStart(3)}  ${(r.player?.name ?? r.policy_version?.name ?? "?").padEnd(24)} ${formatScore(r.score)}`,
                ),
              ),
          ),
    ),
    h(
      Pane,
      {
        title: "Episodes",
        note: `${episodes.length} · Enter opens`,
        focused: true,
        width,
        height: height - resultsHeight,
      },
      h(EpisodeList, {
        episodes,
        selected: cursor.index,
        focused: true,
        height: paneBodyRows(height - resultsHeight),
      }),
    ),
  );
}

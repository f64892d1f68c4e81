// A player of the standings: their line in the table, their recent rounds, and their episodes
// in this division (Enter opens one).
import { Box, Text, useInput } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { Division, EpisodeRequest, LeaderboardRow } from "@gauntlet/core";

import { EpisodeList } from "../components/episode-list.ts";
import { Pane, paneBodyRows } from "../components/pane.ts";
import { useTheme } from "../components/theme.ts";
import type { Notices } from "../data/notices.ts";
import { useListCursor } from "../hooks/use-list-cursor.ts";
import { useLoad } from "../hooks/use-load.ts";
import { formatScore, timeAgo } from "../state/format.ts";

/** How often a player's episodes are loaded again (besides on each live event). */
export const PLAYER_POLL_MS = 10_000;

export interface PlayerScreenProps {
  /** The player's line of the standings, as live as the standings. */
  row: LeaderboardRow;
  division: Division;
  loadEpisodes: (signal: AbortSignal) => Promise<EpisodeRequest[]>;
  /** Changes when the watched division has news: the episodes are loaded again. */
  refreshKey: unknown;
  notices: Notices;
  width: number;
  height: number;
  now: number;
  active: boolean;
  onOpenEpisode: (episodeId: string) => void;
}

export function PlayerScreen({
  row,
  division,
  loadEpisodes,
  refreshKey,
  notices,
  width,
  height,
  now,
  active,
  onOpenEpisode,
}: PlayerScreenProps): ReactElement {
  const theme = useTheme();
  const episodes = useLoad(notices, "episodes", loadEpisodes, {
    key: refreshKey,
    everyMs: PLAYER_POLL_MS,
  });
  const list = episodes.state === "ready" ? episodes.value : [];
  const cursor = useListCursor(list.length);
  useInput(
    (input, key) => {
      if (cursor.handle(input, key)) return;
      const episode = list[cursor.index];
      if (key.return && episode) onOpenEpisode(episode.id);
    },
    { isActive: active },
  );

  const recent = row.recent_rounds.slice(0, 6);
  const summaryHeight = 3 + 1 + 1 + Math.max(1, recent.length);
  const episodesHeight = Math.max(4, height - summaryHeight);
  return h(
    Box,
    { flexDirection: "column", width, height },
    h(
      Pane,
      {
        title: row.player_name,
        note: `${division.name} · rank ${row.rank}`,
        focused: false,
        width,
        height: summaryHeight,
      },
      h(
        Text,
        { wrap: "truncate-end" },
        `Rating ${formatScore(row.score)} · ${row.rounds_played} rounds · ${row.episodes_played} episodes counted`,
        h(Text, { color: theme.muted }, `  ${row.player_id}`),
      ),
      h(Text, { bold: true, color: theme.muted }, "Recent rounds"),
      recent.length === 0
        ? h(Text, { color: theme.muted }, "none yet")
        : h(
            Box,
            { flexDirection: "column" },
            ...recent.map((r) =>
              h(
                Text,
                { key: r.id, wrap: "truncate-end" },
                `Round ${String(r.round_number).padEnd(5)}`,
                r.rank === null ? h(Text, { color: theme.muted }, "not settled") : `rank ${r.rank}`,
                r.score === null ? "" : `  score ${formatScore(r.score)}`,
                h(
                  Text,
                  { color: theme.muted },
                  r.completed_at ? `  ${timeAgo(r.completed_at, now)}` : "",
                ),
              ),
            ),
          ),
    ),
    h(
      Pane,
      {
        title: "Episodes",
        note:
          episodes.state === "ready"
            ? `${list.length} latest in ${division.name} · Enter opens`
            : undefined,
        focused: true,
        width,
        height: episodesHeight,
      },
      episodes.state === "loading"
        ? h(Text, { color: theme.muted }, "Loading episodes…")
        : episodes.state === "failed"
          ? h(Text, { color: theme.bad, wrap: "truncate-end" }, episodes.message)
          : h(EpisodeList, {
              episodes: list,
              selected: cursor.index,
              focused: true,
              height: paneBodyRows(episodesHeight),
            }),
    ),
  );
}

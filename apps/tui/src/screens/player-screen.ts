// A player of the standings: their line in the table, their recent rounds in this division (a
// player who moved kept the rounds of the division they left), and their episodes in this
// division, newest first (Enter opens one).
import { Box, Text, useInput } from "ink";
import { createElement as h, useMemo, type ReactElement } from "react";

import type { Division, EpisodeRequest, LeaderboardRow } from "@gauntlet/core";

import { EpisodeList } from "../components/episode-list.ts";
import { Pane, paneBodyRows } from "../components/pane.ts";
import { useTheme } from "../components/theme.ts";
import type { PlayerData } from "../data/loaders.ts";
import type { Notices } from "../data/notices.ts";
import { useListCursor } from "../hooks/use-list-cursor.ts";
import { useLoad } from "../hooks/use-load.ts";
import { formatInterval, formatScore, timeAgo } from "../state/format.ts";

/**
 * Newest first by the time the list shows (when each last changed), then by when it was asked
 * for: a round's episodes are all asked for at once, and the server's order among them is not
 * the order they finished in.
 */
export function newestFirst(a: EpisodeRequest, b: EpisodeRequest): number {
  return (
    b.updated_at.localeCompare(a.updated_at) ||
    b.created_at.localeCompare(a.created_at) ||
    b.id.localeCompare(a.id)
  );
}

/** How often a player's episodes are loaded again (besides on each live event). */
export const PLAYER_POLL_MS = 10_000;

export interface PlayerScreenProps {
  /** The player's line of the standings, as live as the standings. */
  row: LeaderboardRow;
  division: Division;
  /** The player's episodes in the division (newest first) and the division's rounds. */
  loadEpisodes: (signal: AbortSignal) => Promise<PlayerData>;
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
  const loaded = episodes.state === "ready" ? episodes.value.episodes : null;
  const list = useMemo(() => (loaded ? [...loaded].sort(newestFirst) : []), [loaded]);
  const cursor = useListCursor(list.length);
  useInput(
    (input, key) => {
      if (cursor.handle(input, key)) return;
      const episode = list[cursor.index];
      if (key.return && episode) onOpenEpisode(episode.id);
    },
    { isActive: active },
  );

  const ours = episodes.state === "ready" ? episodes.value.divisionRoundIds : null;
  const recent = ours ? row.recent_rounds.filter((r) => ours.has(r.id)).slice(0, 6) : [];
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
        `Score ${formatScore(row.score)}`,
        row.score_interval ? ` (95% interval ${formatInterval(row.score_interval)})` : "",
        row.form === undefined ? "" : ` · form ${formatScore(row.form)}`,
        ` · ${row.rounds_played} rounds · ${row.episodes_played} episodes counted`,
        h(Text, { color: theme.muted }, `  ${row.player_id}`),
      ),
      h(Text, { bold: true, color: theme.muted }, `Recent rounds in ${division.name}`),
      recent.length === 0
        ? h(Text, { color: theme.muted }, ours ? "none yet" : "…")
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

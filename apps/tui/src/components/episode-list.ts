// Episodes in one line each: when, status, and who played whom with their scores.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { EpisodeRequest } from "@gauntlet/core";

import { windowStart } from "../hooks/use-list-cursor.ts";
import { formatClock, formatScore } from "../state/format.ts";
import { useTheme } from "./theme.ts";

export function matchLine(episode: EpisodeRequest): string {
  const scores = new Map(episode.scores.map((s) => [s.position, s.score]));
  return episode.participants
    .map((p) => {
      const score = scores.get(p.position);
      return `${p.player_name ?? p.policy_name}${score !== undefined ? ` ${formatScore(score)}` : ""}`;
    })
    .join(" vs ");
}

export interface EpisodeListProps {
  episodes: readonly EpisodeRequest[];
  selected: number;
  focused: boolean;
  height: number;
}

export function EpisodeList({
  episodes,
  selected,
  focused,
  height,
}: EpisodeListProps): ReactElement {
  const theme = useTheme();
  if (episodes.length === 0) return h(Text, { color: theme.muted }, "No episodes.");
  const start = windowStart(selected, episodes.length, height);
  return h(
    Box,
    { flexDirection: "column", height, flexShrink: 0 },
    ...episodes.slice(start, start + height).map((episode, i) => {
      const isSelected = start + i === selected;
      const color =
        episode.status === "completed"
          ? theme.good
          : episode.status === "failed" || episode.status === "cancelled"
            ? theme.bad
            : theme.warn;
      return h(
        Box,
        { key: episode.id, height: 1 },
        h(
          Text,
          { wrap: "truncate-end", inverse: isSelected && focused },
          isSelected ? "›" : " ",
          `${formatClock(episode.updated_at)} `,
          h(Text, { color: isSelected && focused ? undefined : color }, episode.status.padEnd(10)),
          matchLine(episode),
        ),
      );
    }),
  );
}

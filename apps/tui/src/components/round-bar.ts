// The current round in one line: its number, its state, and how many episodes have settled.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import { progressBar, timeAgo } from "../state/format.ts";
import type { RoundProgress } from "../state/round-progress.ts";
import { waitingNote } from "../state/round-waiting.ts";
import { useTheme } from "./theme.ts";

export interface RoundBarProps {
  progress: RoundProgress | null;
  width: number;
  now: number;
}

export function RoundBar({ progress, width, now }: RoundBarProps): ReactElement {
  const theme = useTheme();
  if (progress === null)
    return h(
      Box,
      { width, height: 1, flexShrink: 0 },
      h(
        Text,
        { color: theme.muted, wrap: "truncate-end" },
        "No round yet: waiting for the first one to start",
      ),
    );
  const { round, total, settled, failed } = progress;
  const statusColor =
    round.status === "running"
      ? theme.warn
      : round.status === "completed"
        ? theme.good
        : round.status === "failed"
          ? theme.bad
          : theme.muted;
  const count =
    total === null ? `${settled.size} episodes settled` : `${settled.size}/${total} episodes`;
  const barWidth = width >= 100 ? 20 : 10;
  const when =
    round.status === "running" || round.status === "pending"
      ? round.started_at
        ? `started ${timeAgo(round.started_at, now)}`
        : ""
      : round.completed_at
        ? `ended ${timeAgo(round.completed_at, now)}`
        : "";
  return h(
    Box,
    { width, height: 1, flexShrink: 0 },
    h(
      Text,
      { wrap: "truncate-end" },
      h(Text, { bold: true }, `Round ${round.round_number}`),
      " ",
      h(Text, { color: statusColor }, round.status),
      "  ",
      total !== null
        ? h(Text, { color: theme.accent }, progressBar(settled.size, total, barWidth))
        : null,
      total !== null ? " " : null,
      count,
      failed > 0 ? h(Text, { color: theme.bad }, ` · ${failed} failed`) : null,
      round.status === "running" && waitingNote(round)
        ? h(Text, { color: theme.warn }, ` · ${waitingNote(round) ?? ""}`)
        : null,
      when ? h(Text, { color: theme.muted, dimColor: !theme.color }, ` · ${when}`) : null,
    ),
  );
}

// The standings: rank, movement since the previous standings, player, score (the fit's strength)
// with its 95% interval as two ends, the ranks the row could hold (or "settled"), rounds played
// and a sparkline of recent round results.
// Narrow terminals drop the rank range, then the interval, then the sparkline.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { LeaderboardRow } from "@gauntlet/core";

import { windowStart } from "../hooks/use-list-cursor.ts";
import { formatInterval, formatRankRange, formatScore } from "../state/format.ts";
import { fieldSize, sparkline } from "../state/sparkline.ts";
import { movementOf, type Movement, type StandingsView } from "../state/standings.ts";
import { useTheme, type Theme } from "./theme.ts";

export interface StandingsTableProps {
  view: StandingsView;
  /** The rows to show (the filter applied), best first. */
  rows: readonly LeaderboardRow[];
  selected: number;
  focused: boolean;
  /** Inner width and the rows available, header line included. */
  width: number;
  height: number;
}

const SPARK = 8;

interface Columns {
  rank: number;
  move: number;
  rating: number;
  interval: number;
  ranks: number;
  rounds: number;
  recent: number;
  name: number;
}

export function standingsColumns(width: number): Columns {
  const recent = width >= 56 ? SPARK + 2 : 0;
  const interval = width >= 64 ? 13 : 0;
  const ranks = width >= 76 ? 12 : 0;
  const fixed = { rank: 4, move: 4, rating: 9, interval, ranks, rounds: 7, recent };
  const name = Math.max(
    6,
    width -
      fixed.rank -
      fixed.move -
      fixed.rating -
      fixed.interval -
      fixed.ranks -
      fixed.rounds -
      fixed.recent -
      1,
  );
  return { ...fixed, name };
}

function movementText(
  movement: Movement,
  theme: Theme,
): { text: string; color: string | undefined } {
  switch (movement.kind) {
    case "up":
      return { text: `▲${movement.by}`, color: theme.good };
    case "down":
      return { text: `▼${movement.by}`, color: theme.bad };
    case "same":
      return { text: "=", color: theme.muted };
    case "new":
      return { text: "new", color: theme.accent };
    case "unknown":
      return { text: "·", color: theme.muted };
  }
}

function cell(
  width: number,
  text: string,
  props: Record<string, unknown> = {},
  align: "left" | "right" = "left",
) {
  return h(
    Box,
    { width, flexShrink: 0, justifyContent: align === "right" ? "flex-end" : "flex-start" },
    h(Text, { wrap: "truncate-end", ...props }, text),
  );
}

export function StandingsTable({
  view,
  rows,
  selected,
  focused,
  width,
  height,
}: StandingsTableProps): ReactElement {
  const theme = useTheme();
  const columns = standingsColumns(width);
  const field = fieldSize(view.rows);
  const bodyRows = Math.max(0, height - 1);
  const start = windowStart(selected, rows.length, bodyRows);
  const shown = rows.slice(start, start + bodyRows);
  const header = h(
    Box,
    { height: 1, flexShrink: 0 },
    cell(columns.rank, "#", { color: theme.muted, bold: true }),
    cell(columns.move, "±", { color: theme.muted, bold: true }),
    cell(columns.name, "Player", { color: theme.muted, bold: true }),
    cell(columns.rating, "Score", { color: theme.muted, bold: true }, "right"),
    columns.interval > 0
      ? cell(columns.interval, "95% interval", { color: theme.muted, bold: true }, "right")
      : null,
    columns.ranks > 0
      ? cell(columns.ranks, "Could rank", { color: theme.muted, bold: true }, "right")
      : null,
    cell(columns.rounds, "Rounds", { color: theme.muted, bold: true }, "right"),
    columns.recent > 0
      ? h(
          Box,
          { width: columns.recent, flexShrink: 0, paddingLeft: 2 },
          h(Text, { color: theme.muted, bold: true, wrap: "truncate-end" }, "Recent"),
        )
      : null,
  );
  return h(
    Box,
    { flexDirection: "column", width, height, flexShrink: 0 },
    header,
    ...shown.map((row, i) => {
      const index = start + i;
      const isSelected = index === selected;
      const movement = movementText(movementOf(view, row), theme);
      const highlight = isSelected && focused;
      const changed = view.changed.has(row.player_id);
      return h(
        Box,
        { key: row.player_id, height: 1, flexShrink: 0 },
        cell(columns.rank, `${isSelected ? "›" : " "}${row.rank}`, {
          inverse: highlight,
          bold: isSelected,
        }),
        cell(columns.move, movement.text, { color: movement.color, inverse: highlight }),
        cell(columns.name, row.player_name, { inverse: highlight, bold: isSelected }),
        cell(
          columns.rating,
          formatScore(row.score),
          { inverse: highlight, bold: changed, color: changed ? theme.accent : undefined },
          "right",
        ),
        columns.interval > 0
          ? cell(
              columns.interval,
              formatInterval(row.score_interval),
              { inverse: highlight, color: theme.muted },
              "right",
            )
          : null,
        columns.ranks > 0
          ? cell(
              columns.ranks,
              formatRankRange(row.rank_range, row.settled),
              { inverse: highlight, color: row.settled === false ? theme.muted : undefined },
              "right",
            )
          : null,
        cell(columns.rounds, String(row.rounds_played), { inverse: highlight }, "right"),
        columns.recent > 0
          ? h(
              Box,
              { width: columns.recent, flexShrink: 0, paddingLeft: 2 },
              h(
                Text,
                { color: theme.accent, wrap: "truncate-end" },
                sparkline(row.recent_rounds, field, SPARK),
              ),
            )
          : null,
      );
    }),
  );
}

// What beats what: the division's pairwise results as a matrix, the row player's win rate against
// the column player with the number of episodes they shared. Rows in standings order, columns
// named by rank; as many players as the width allows, the top of the table first.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { DivisionPairwise } from "@gauntlet/core";

import { useTheme } from "./theme.ts";

/** A cell: "100%·12" at most. */
const CELL = 8;
const NAME = 14;

export interface PairwiseGrid {
  /** Column headings (ranks), after the name column. */
  header: string[];
  rows: { name: string; cells: { text: string; rate: number | null }[] }[];
  /** Players left out for want of width. */
  hidden: number;
}

export function pairwiseGrid(pairwise: DivisionPairwise, width: number): PairwiseGrid {
  const fits = Math.max(0, Math.floor((width - NAME) / CELL));
  const shown = pairwise.players.slice(0, fits);
  const cellOf = new Map(pairwise.cells.map((c) => [`${c.player_id} ${c.opponent_id}`, c]));
  return {
    header: shown.map((_, i) => `#${i + 1}`),
    rows: shown.map((p, i) => ({
      name: `${i + 1} ${p.player_name}`,
      cells: shown.map((o) => {
        if (o.player_id === p.player_id) return { text: "·", rate: null };
        const c = cellOf.get(`${p.player_id} ${o.player_id}`);
        if (!c || c.win_rate === null) return { text: "–", rate: null };
        return { text: `${Math.round(c.win_rate * 100)}%·${c.episodes}`, rate: c.win_rate };
      }),
    })),
    hidden: pairwise.players.length - shown.length,
  };
}

/** Rows the matrix needs: a heading and one per player (capped by `maxRows`). */
export const pairwiseRows = (pairwise: DivisionPairwise): number => pairwise.players.length + 1;

export function PairwiseMatrix({
  pairwise,
  width,
  height,
}: {
  pairwise: DivisionPairwise;
  width: number;
  height: number;
}): ReactElement {
  const theme = useTheme();
  const grid = pairwiseGrid(pairwise, width);
  const rows = grid.rows.slice(0, Math.max(0, height - 1));
  const pad = (text: string, n: number) => text.slice(0, n - 1).padEnd(n);
  const color = (rate: number | null) =>
    rate === null ? theme.muted : rate > 0.5 ? theme.good : rate < 0.5 ? theme.bad : undefined;
  return h(
    Box,
    { flexDirection: "column", width },
    h(
      Text,
      { color: theme.muted },
      pad("vs", NAME) + grid.header.map((c) => c.padStart(CELL - 1).padEnd(CELL)).join(""),
    ),
    ...rows.map((r) =>
      h(
        Text,
        { key: r.name, wrap: "truncate" },
        pad(r.name, NAME),
        ...r.cells.map((c, i) =>
          h(Text, { key: i, color: color(c.rate) }, c.text.padStart(CELL - 1).padEnd(CELL)),
        ),
      ),
    ),
  );
}

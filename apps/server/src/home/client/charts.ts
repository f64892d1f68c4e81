// Rating history as a chart (uPlot: small, maintained, canvas, no dependencies). The history is
// the division's `standings_changed` events: each carries every row's score when it was written.
import uPlot from "uplot";

import type { CompetitionEvent } from "@gauntlet/core";

import { get, q } from "./api.ts";
import { el, muted } from "./dom.ts";

interface StandingsPayload {
  rows?: { player_id: string; player_name: string; score: number }[];
}

export interface History {
  times: number[];
  players: { id: string; name: string; scores: (number | null)[] }[];
}

const PALETTE = [
  "#0b62c4",
  "#d1495b",
  "#2a9d8f",
  "#e9a03b",
  "#7b4fc9",
  "#3d8b37",
  "#c2569b",
  "#6b7a8f",
];

/** A division's rating history from its feed, oldest first; `only` keeps one player. */
export async function divisionHistory(divisionId: string, only?: string): Promise<History> {
  const events = await get<CompetitionEvent[]>(
    `/v2/competition-events?division_id=${q(divisionId)}&event_type=standings_changed&limit=500`,
  );
  const ordered = [...events].sort((a, b) => a.seq - b.seq);
  const players = new Map<string, { id: string; name: string; scores: (number | null)[] }>();
  const times: number[] = [];
  ordered.forEach((e, i) => {
    times.push(Date.parse(e.created_at) / 1000);
    for (const row of (e.payload as StandingsPayload).rows ?? []) {
      if (only && row.player_id !== only) continue;
      let p = players.get(row.player_id);
      if (!p)
        players.set(row.player_id, (p = { id: row.player_id, name: row.player_name, scores: [] }));
      p.name = row.player_name;
      p.scores[i] = row.score;
    }
  });
  for (const p of players.values()) for (let i = 0; i < times.length; i++) p.scores[i] ??= null;
  return { times, players: [...players.values()] };
}

/** The chart, sized to its container (and resized with it); a line of text when there is no history. */
export function historyChart(history: History, label: string): HTMLElement {
  if (history.times.length < 1 || history.players.length === 0)
    return muted("No rating history yet.");
  const box = el("div", {
    class: "chart",
    role: "img",
    "aria-label": `${label}: ${history.players.map((p) => p.name).join(", ")}`,
  });
  const ink = getComputedStyle(document.body).color;
  const grid = { stroke: "rgba(128,128,128,.2)", width: 1 };
  let chart: uPlot | null = null;
  const make = (width: number) => {
    const opts: uPlot.Options = {
      width,
      height: Math.max(180, Math.min(320, Math.round(width * 0.45))),
      series: [
        {},
        ...history.players.map((p, i) => ({
          label: p.name,
          stroke: PALETTE[i % PALETTE.length] ?? "#888",
          width: 2,
          spanGaps: true,
          points: { show: history.times.length < 40 },
        })),
      ],
      axes: [
        { stroke: ink, grid },
        { stroke: ink, grid, size: 56 },
      ],
      legend: { live: false },
    };
    const data: uPlot.AlignedData = [history.times, ...history.players.map((p) => p.scores)];
    chart = new uPlot(opts, data, box);
  };
  new ResizeObserver(([entry]) => {
    const width = Math.floor(entry?.contentRect.width ?? 0);
    if (width <= 0) return;
    if (!chart) make(width);
    else chart.setSize({ width, height: chart.height });
  }).observe(box);
  return box;
}

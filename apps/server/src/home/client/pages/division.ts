// A division: standings with their certainty (interval bars, could-rank, P(above next), settled
// marks), its rating history as a chart, the pairwise record as a heat map, rounds and episodes.
import type {
  Division,
  DivisionPairwise,
  EpisodeRequest,
  LeaderboardRow,
  RoundPage,
} from "@gauntlet/core";

import { get, q } from "../api.ts";
import { divisionHistory, historyChart } from "../charts.ts";
import { el, muted } from "../dom.ts";
import { href, link } from "../links.ts";
import type { Drawn } from "../page.ts";
import { episodesTable, quietNote, roundsTable, standingsTable, waitingLine } from "../parts.ts";

/** Row beat column this share of their meetings: blue for more, red for fewer, blank for none. */
function heatMap(p: DivisionPairwise): HTMLElement {
  if (p.players.length < 2 || p.cells.length === 0) return muted("No meetings yet.");
  const cell = new Map(p.cells.map((c) => [`${c.player_id} ${c.opponent_id}`, c]));
  const head = el("tr", null, [
    el("th", { scope: "col", text: "row beat column" }),
    ...p.players.map((pl) =>
      el("th", { scope: "col" }, [link(href.player(pl.player_id), pl.player_name)]),
    ),
  ]);
  const rows = p.players.map((row) =>
    el("tr", null, [
      el("th", { scope: "row" }, [link(href.player(row.player_id), row.player_name)]),
      ...p.players.map((col) => {
        const c = cell.get(`${row.player_id} ${col.player_id}`);
        if (row.player_id === col.player_id || !c || c.win_rate === null)
          return el("td", { class: "cell muted", text: "·" });
        const hue = c.win_rate >= 0.5 ? 212 : 352;
        const strength = Math.round(Math.abs(c.win_rate - 0.5) * 2 * 70);
        return el("td", {
          class: "cell",
          style: `background:hsl(${hue} 70% 50% / ${strength}%)`,
          title: `${row.player_name} vs ${col.player_name}: ${c.wins} won, ${c.losses} lost, ${c.draws} drawn of ${c.episodes}`,
          text: `${Math.round(c.win_rate * 100)}%`,
        });
      }),
    ]),
  );
  return el("div", { class: "scroll" }, [
    el("table", { class: "heat" }, [el("thead", null, [head]), el("tbody", null, rows)]),
  ]);
}

export async function drawDivision(id: string): Promise<Drawn> {
  const d = q(id);
  const [division, rows, pairwise, rounds, episodes, history, note] = await Promise.all([
    get<Division>(`/v2/divisions/${d}`),
    get<LeaderboardRow[] | null>(`/v2/divisions/${d}/leaderboard`),
    get<DivisionPairwise>(`/v2/divisions/${d}/pairwise`),
    get<RoundPage>(`/v2/rounds?division_id=${d}&limit=10`),
    get<{ entries: EpisodeRequest[] }>(`/v2/episode-requests?division_id=${d}&limit=10`),
    divisionHistory(id),
    quietNote(id),
  ]);
  const evidence = rows?.[0]?.evidence_episodes;
  return {
    title: `${division.name} · ${division.league.name}`,
    crumbs: [
      link(href.home(), "Leagues"),
      link(href.league(division.league.id), division.league.name),
    ],
    body: [
      el("section", { class: "division-page", "data-division": division.id }, [
        el("h2", { text: division.name }),
        division.description ? muted(division.description) : null,
        waitingLine(rounds.entries),
        el("h3", { text: "Standings" }),
        standingsTable(rows),
        evidence === undefined
          ? null
          : muted(
              `The intervals rest on ${evidence} settled episodes; ✓ marks a rank the record has settled.`,
            ),
        el("h3", { text: "Rating history" }),
        historyChart(history, `${division.name} rating history`),
        el("h3", { text: "Pairwise record" }),
        heatMap(pairwise),
        pairwise.episodes
          ? muted(
              `${pairwise.episodes} scored episodes; ${pairwise.cells.length / 2} pairings met.`,
            )
          : null,
        el("div", { class: "division" }, [
          el("div", null, [el("h3", { text: "Recent rounds" }), roundsTable(rounds.entries)]),
          el("div", null, [el("h3", { text: "Recent episodes" }), episodesTable(episodes.entries)]),
        ]),
      ]),
    ],
    topics: [`division:${division.id}`],
    note,
  };
}

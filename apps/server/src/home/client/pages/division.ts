// A division: standings with their certainty (interval bars, could-rank, P(above next), settled
// marks), which commissioner runs it and how it works as that one describes it, its rating history as a chart, the pairwise record as a heat map, rounds and episodes.
import type {
  Division,
  DivisionPairwise,
  EpisodeRequest,
  LeaderboardRow,
  RoundPage,
} from "@gauntlet/core";

import { get, q } from "../api.ts";
import { divisionHistory, historyChart } from "../charts.ts";
import { howItWorks, leagueCommissioner } from "../commissioner.ts";
import { el, facts, muted } from "../dom.ts";
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

/** A part of the page that arrives after the standings: a placeholder, filled when its reads answer. */
function later(label: string, part: Promise<Node | null>): HTMLElement {
  const box = el("div", { "data-part": label }, [muted("Loading…")]);
  part.then(
    (node) => box.replaceChildren(...(node ? [node] : [])),
    () => box.replaceChildren(muted(`Could not read the ${label}.`)),
  );
  return box;
}

export async function drawDivision(id: string): Promise<Drawn> {
  const d = q(id);
  // The standings paint first; the chart, the heat map and the lists follow as they answer.
  const [division, rows] = await Promise.all([
    get<Division>(`/v2/divisions/${d}`),
    get<LeaderboardRow[] | null>(`/v2/divisions/${d}/leaderboard`),
  ]);
  const rounds = get<RoundPage>(`/v2/rounds?division_id=${d}&limit=10`);
  const pairwise = get<DivisionPairwise>(`/v2/divisions/${d}/pairwise`);
  const evidence = rows?.[0]?.evidence_episodes;
  const commissioner = await leagueCommissioner(division.league);
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
        facts([["commissioner", commissioner]]),
        el("h3", { text: "Standings" }),
        standingsTable(rows),
        evidence === undefined
          ? null
          : muted(
              `The intervals rest on ${evidence} settled episodes; ✓ marks a rank the record has settled.`,
            ),
        later(
          "round waiting",
          rounds.then((r) => waitingLine(r.entries)),
        ),
        el("h3", { text: "Rating history" }),
        later(
          "rating history",
          divisionHistory(id).then((h) => historyChart(h, `${division.name} rating history`)),
        ),
        el("h3", { text: "Pairwise record" }),
        later(
          "pairwise record",
          pairwise.then((p) =>
            el("div", null, [
              heatMap(p),
              p.episodes
                ? muted(`${p.episodes} scored episodes; ${p.cells.length / 2} pairings met.`)
                : null,
            ]),
          ),
        ),
        el("h3", { text: "How it works" }),
        howItWorks(division.commissioner_description),
        el("div", { class: "division" }, [
          el("div", null, [
            el("h3", { text: "Recent rounds" }),
            later(
              "rounds",
              rounds.then((r) => roundsTable(r.entries)),
            ),
          ]),
          el("div", null, [
            el("h3", { text: "Recent episodes" }),
            later(
              "episodes",
              get<{ entries: EpisodeRequest[] }>(
                `/v2/episode-requests?division_id=${d}&limit=10`,
              ).then((e) => episodesTable(e.entries)),
            ),
          ]),
        ]),
      ]),
    ],
    topics: [`division:${division.id}`],
    note: quietNote(id),
  };
}

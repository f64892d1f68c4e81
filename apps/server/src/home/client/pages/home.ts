// `/`: the leagues the visitor may see (anyone's public ones; signed in, their private ones too),
// each division's standings, recent rounds and episodes, and — signed in — their evaluations.
import type { Division, EpisodeRequest, LeaderboardRow, League, RoundPage } from "@gauntlet/core";

import { LISTED_EPISODES, LISTED_ROUNDS } from "../../listed.ts";
import { get, q } from "../api.ts";
import { ago, el, muted } from "../dom.ts";
import { href, link } from "../links.ts";
import type { Drawn } from "../page.ts";
import { episodesTable, roundsTable, standingsTable, waitingLine } from "../parts.ts";
import { evaluationsSection } from "./evaluations.ts";

export const shownDivisions = (divisions: readonly Division[]) =>
  divisions.filter((d) => !d.hidden && !d.archived_at).sort((a, b) => a.level - b.level);

interface Pulse {
  playing: boolean;
  lastRoundAt: string | null;
}

async function division(d: Division, pulse: Pulse): Promise<HTMLElement> {
  const id = q(d.id);
  const [rows, rounds, episodes] = await Promise.all([
    get<LeaderboardRow[] | null>(`/v2/divisions/${id}/leaderboard`),
    get<RoundPage>(`/v2/rounds?division_id=${id}&limit=${LISTED_ROUNDS}`),
    get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?division_id=${id}&limit=${LISTED_EPISODES}`,
    ),
  ]);
  for (const r of rounds.entries) {
    if (r.status === "running" || r.status === "pending") pulse.playing = true;
    const at = r.started_at ?? r.created_at;
    if (at && (!pulse.lastRoundAt || at > pulse.lastRoundAt)) pulse.lastRoundAt = at;
  }
  return el("section", { class: "division-block", "data-division": d.id }, [
    el("h3", null, [link(href.division(d.id), d.name), d.description ? ` — ${d.description}` : ""]),
    waitingLine(rounds.entries),
    el("div", { class: "division" }, [
      el("div", null, [el("h4", { text: "Standings" }), standingsTable(rows, false)]),
      el("div", null, [el("h4", { text: "Recent rounds" }), roundsTable(rounds.entries)]),
    ]),
    el("h4", { text: "Recent episodes" }),
    episodesTable(episodes.entries),
  ]);
}

export async function drawHome(): Promise<Drawn> {
  const leagues = await get<League[]>("/v2/leagues");
  const evaluations = evaluationsSection();
  const pulse: Pulse = { playing: false, lastRoundAt: null };
  const sections = await Promise.all(
    leagues.map(async (l) => {
      const divisions = shownDivisions(await get<Division[]>(`/v2/divisions?league_id=${q(l.id)}`));
      const blocks = await Promise.all(divisions.map((d) => division(d, pulse)));
      return el("section", { class: "league", "data-league": l.id }, [
        el("h2", null, [link(href.league(l.id), l.name)]),
        l.description ? muted(l.description) : null,
        ...(blocks.length ? blocks : [muted("No divisions yet.")]),
      ]);
    }),
  );
  return {
    title: "Gauntlet",
    crumbs: [],
    body: [
      ...(sections.length ? sections : [muted("No leagues you may see yet.")]),
      await evaluations,
    ].filter((n) => n !== null),
    topics: leagues.map((l) => `league:${l.id}`),
    note: pulse.playing
      ? "rounds running"
      : `quiet: no round running${pulse.lastRoundAt ? `, the last started ${ago(pulse.lastRoundAt)}` : ""}`,
  };
}

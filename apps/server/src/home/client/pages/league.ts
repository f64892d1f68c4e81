// A league: what it is and which commissioner runs it, each division with its leaders and a link to the whole division, and —
// signed in — a form to submit a policy version to it.
import type { Division, LeaderboardRow, League } from "@gauntlet/core";

import { get, q } from "../api.ts";
import { leagueCommissioner } from "../commissioner.ts";
import { el, facts, muted } from "../dom.ts";
import { href, link } from "../links.ts";
import type { Drawn } from "../page.ts";
import { quietNote, standingsTable } from "../parts.ts";
import { shownDivisions } from "./home.ts";
import { submitSection } from "./submit.ts";

export async function drawLeague(id: string): Promise<Drawn> {
  const league = await get<League>(`/v2/leagues/${q(id)}`);
  const divisions = shownDivisions(await get<Division[]>(`/v2/divisions?league_id=${q(id)}`));
  const submit = submitSection(league.id);
  const commissioner = leagueCommissioner(league);
  const blocks = await Promise.all(
    divisions.map(async (d) => {
      const rows = await get<LeaderboardRow[] | null>(`/v2/divisions/${q(d.id)}/leaderboard`);
      return el("section", { class: "division-block", "data-division": d.id }, [
        el("h3", null, [link(href.division(d.id), d.name)]),
        d.description ? muted(d.description) : null,
        standingsTable(rows),
      ]);
    }),
  );
  // Every division settled: the league is quiet; else the first division's quiet reason, if any.
  const note = Promise.all(divisions.map((d) => quietNote(d.id))).then((notes) =>
    notes.length > 0 && notes.every((n) => n === "quiet: every rank settled")
      ? "quiet: every rank settled"
      : (notes.find((n) => n !== null) ?? null),
  );
  return {
    title: league.name,
    crumbs: [link(href.home(), "Leagues")],
    body: [
      el("section", { class: "league", "data-league": league.id }, [
        el("h2", { text: league.name }),
        league.description ? muted(league.description) : null,
        facts([
          ["game", league.game.name],
          ["commissioner", await commissioner],
          ["divisions", String(divisions.length)],
        ]),
        ...(blocks.length ? blocks : [muted("No divisions yet.")]),
        await submit,
      ]),
    ],
    topics: [`league:${league.id}`],
    note,
  };
}

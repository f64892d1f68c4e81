// A round: where it belongs, which commissioner ran it, its status, its results and its episodes
// as the commissioner asked for them (with the tags it gave each).
import type { EpisodeRequest, RoundDetail } from "@gauntlet/core";

import { get, q } from "../api.ts";
import { commissionerLabel, roundEpisodesTable } from "../commissioner.ts";
import { ago, el, facts, muted, round2, table } from "../dom.ts";
import { href, link, maybeLink } from "../links.ts";
import type { Drawn } from "../page.ts";
import { waitingLine } from "../parts.ts";

export async function drawRound(id: string): Promise<Drawn> {
  const [round, episodes] = await Promise.all([
    get<RoundDetail>(`/v2/rounds/${q(id)}`),
    get<{ entries: EpisodeRequest[] }>(`/v2/episode-requests?round_id=${q(id)}&limit=200`),
  ]);
  const d = round.division;
  const commissioner = await commissionerLabel(round.commissioner);
  const ended = round.status === "completed" || round.status === "failed";
  return {
    title: `Round #${round.round_number} · ${d.name}`,
    crumbs: [
      link(href.home(), "Leagues"),
      link(href.league(d.league.id), d.league.name),
      link(href.division(d.id), d.name),
    ],
    body: [
      el("section", { class: "round-page", "data-round": round.id }, [
        el("h2", { text: `Round #${round.round_number}` }),
        facts([
          ["division", link(href.division(d.id), d.name)],
          ["commissioner", commissioner],
          ["status", round.status + (round.error ? ` (${round.error})` : "")],
          [
            "started",
            round.started_at ? `${round.started_at} (${ago(round.started_at)})` : "not yet",
          ],
          ["completed", round.completed_at ?? "not yet"],
        ]),
        waitingLine([round]),
        el("h3", { text: "Results" }),
        round.results.length
          ? table(
              ["#", "player", "version", "score"],
              round.results.map((r) => [
                r.rank,
                maybeLink(r.player ? href.player(r.player.id) : null, r.player?.name ?? "—"),
                maybeLink(
                  r.policy_version ? href.policyVersion(r.policy_version.id) : null,
                  r.policy_version ? `${r.policy_version.name} v${r.policy_version.version}` : "—",
                ),
                round2(r.score),
              ]),
              [0, 3],
            )
          : muted(ended ? "No results." : "Results come when the round settles."),
        el("h3", { text: `Episodes (${episodes.entries.length})` }),
        roundEpisodesTable(episodes.entries),
      ]),
    ],
    topics: ended ? [] : [`division:${d.id}`],
    note: null,
  };
}

// An episode: its players and scores, its status and why it failed, and its replay playing in
// the page through the coworld's replay viewer (the same link the tables offer, framed; the
// viewer runs sandboxed by its own headers), and — signed in — the logs and artifacts the API
// lets the visitor read.
import type { EpisodeRequest, RoundDetail } from "@gauntlet/core";

import { get, q } from "../api.ts";
import { tagsCell } from "../commissioner.ts";
import { ago, el, facts, round2, table } from "../dom.ts";
import { href, link, maybeLink } from "../links.ts";
import type { Drawn } from "../page.ts";
import { replay } from "./replay.ts";
import { seatFiles } from "./seat-files.ts";

const ENDED = new Set(["completed", "failed", "cancelled"]);

export async function drawEpisode(id: string): Promise<Drawn> {
  const e = await get<EpisodeRequest>(`/v2/episode-requests/${q(id)}`);
  const round = e.round_id ? await get<RoundDetail>(`/v2/rounds/${q(e.round_id)}`) : null;
  const d = round?.division;
  const scoreOf = (position: number) => e.scores.find((s) => s.position === position)?.score;
  const failed = e.failed_policy_index ?? null;
  return {
    title: `Episode · ${d?.name ?? "Gauntlet"}`,
    crumbs: round
      ? [
          link(href.home(), "Leagues"),
          link(href.league(round.division.league.id), round.division.league.name),
          link(href.division(round.division.id), round.division.name),
          link(href.round(round.id), `Round #${round.round_number}`),
        ]
      : [link(href.home(), "Leagues")],
    body: [
      el("section", { class: "episode-page", "data-episode": e.id }, [
        el("h2", { text: `Episode ${e.id}` }),
        facts([
          ["status", e.status],
          ...(e.error_type || e.error
            ? [["why it failed", [e.error_type, e.error].filter(Boolean).join(": ")] as const]
            : []),
          ["round", round ? link(href.round(round.id), `#${round.round_number}`) : "—"],
          // The tags the round's commissioner (a coworld's, or the built-in ladder) gave it.
          ...(Object.keys(e.tags).length ? [["tags", tagsCell(e.tags)] as const] : []),
          ["created", `${e.created_at} (${ago(e.created_at)})`],
        ]),
        el("h3", { text: "Players" }),
        table(
          ["seat", "player", "policy version", "score"],
          e.participants.map((p, i) => [
            p.position,
            maybeLink(p.player_id ? href.player(p.player_id) : null, p.player_name ?? "—"),
            maybeLink(
              p.policy_version_id ? href.policyVersion(p.policy_version_id) : null,
              `${p.policy_name}${p.version === null ? "" : ` v${p.version}`}${failed === i ? " (failed)" : ""}`,
            ),
            scoreOf(p.position) === undefined ? "" : round2(scoreOf(p.position) ?? 0),
          ]),
          [0, 3],
        ),
        el("h3", { text: "Replay" }),
        await replay(e),
        el("h3", { text: "Logs and artifacts" }),
        ...(await seatFiles(e)),
      ]),
    ],
    topics: ENDED.has(e.status) || !d ? [] : [`division:${d.id}`],
    note: null,
  };
}

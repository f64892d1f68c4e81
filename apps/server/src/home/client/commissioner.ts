// Who runs a league's rounds, as the pages say it: the server's built-in scheduler (its
// `commissioner_key`), or the coworld's own commissioner (the manifest's runnable id and the
// coworld version it came with); and how a division works, as that commissioner describes it.
// Every string here may be a coworld author's (a description, a tag): it goes in as text only.
import type {
  CommissionerDescription,
  Coworld,
  EpisodeRequest,
  League,
  RoundCommissioner,
} from "@gauntlet/core";

import { get, NotFound, q, Refused } from "./api.ts";
import { el, facts, muted, round2, table, type Child } from "./dom.ts";
import { href, link } from "./links.ts";
import { participantsLine, replayCell } from "./parts.ts";

const coworlds = new Map<string, Promise<Coworld | null>>();

/** A coworld version by id, read once per page; null when the API will not show it. */
function coworld(id: string): Promise<Coworld | null> {
  let read = coworlds.get(id);
  if (!read) {
    read = get<Coworld>(`/v2/coworlds/${q(id)}`).catch((error: unknown) => {
      if (error instanceof NotFound || error instanceof Refused) return null;
      throw error;
    });
    coworlds.set(id, read);
  }
  return read;
}

function coworldLabel(id: string, c: Coworld | null, version: string | null): string {
  const v = version ?? c?.version;
  return `${c?.name ?? id}${v ? ` v${v}` : ""}`;
}

/** "fixture — the coworld's own commissioner (gridrush v1.0.0)", or "ladder (built-in)". */
export async function commissionerLabel(c: RoundCommissioner): Promise<HTMLElement> {
  if (c.kind === "builtin")
    return el("span", { class: "commissioner", "data-kind": "builtin" }, [
      el("code", { text: c.key }),
      " (built-in)",
    ]);
  const cw = await coworld(c.coworld_id);
  return el("span", { class: "commissioner", "data-kind": "coworld" }, [
    el("code", { text: c.runnable_id }),
    ` — the coworld's own commissioner (${coworldLabel(c.coworld_id, cw, c.coworld_version)})`,
  ]);
}

/** Who runs the league: its coworld's commissioner when its config selects one, else its key. */
export function leagueCommissioner(league: League): Promise<HTMLElement> {
  const runnable = league.commissioner_config.commissioner_runnable_id;
  const coworldId = league.game.coworld_id;
  if (typeof runnable === "string" && runnable.length > 0 && coworldId)
    return commissionerLabel({
      kind: "coworld",
      runnable_id: runnable,
      coworld_id: coworldId,
      coworld_version: null,
    });
  return commissionerLabel({ kind: "builtin", key: league.commissioner_key });
}

/** The division's `commissioner_description`: how its rounds, standings and scoring work. */
export function howItWorks(how: CommissionerDescription): HTMLElement {
  const fields: [string, string | undefined][] = [
    ["rounds", how.round_schedule],
    ["structure", how.round_structure],
    ["standings", how.leaderboard_rules],
    ["scoring", how.scoring_mechanics],
    ["next round", how.next_round],
  ];
  const pairs = fields.flatMap(([k, v]) => (v ? [[k, v] as const] : []));
  const changes = how.changelog ?? [];
  return el("div", { class: "how" }, [
    pairs.length ? facts(pairs) : muted("The commissioner does not describe this division."),
    changes.length
      ? el("div", null, [
          el("h3", { text: "Changes" }),
          table(
            ["date", "change", "detail"],
            changes.map((c) => [c.date, c.title, c.detail]),
          ),
        ])
      : null,
  ]);
}

export function tagsCell(tags: Readonly<Record<string, string>>): Child {
  const entries = Object.entries(tags);
  if (!entries.length) return "";
  return el(
    "span",
    { class: "tags" },
    entries.flatMap(([k, v], i) => [i > 0 ? " " : null, el("code", { text: `${k}=${v}` })]),
  );
}

/**
 * A round's episodes as its commissioner asked for them (the oldest request first), with the
 * tags it gave each: they name each episode's part in the round.
 */
export function roundEpisodesTable(list: readonly EpisodeRequest[]): HTMLElement {
  if (!list.length) return muted("No episodes yet.");
  return table(
    ["tags", "players", "scores", "status", "replay"],
    [...list]
      .reverse()
      .map((e) => [
        tagsCell(e.tags),
        participantsLine(e),
        e.scores.map((s) => round2(s.score)).join(" – "),
        link(href.episode(e.id), e.status + (e.error_type ? ` (${e.error_type})` : "")),
        replayCell(e),
      ]),
  );
}

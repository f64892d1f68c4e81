// The pieces several pages show: standings with their certainty, rounds, episodes, the
// round-waiting line, and the division's quiet notice.
import type { CompetitionEvent, EpisodeRequest, LeaderboardRow, Round } from "@gauntlet/core";

import { get, q, signedIn } from "./api.ts";
import { ago, el, muted, round2, table, text, type Child } from "./dom.ts";
import { href, link, maybeLink } from "./links.ts";

/** The 95% interval as a bar over the span of every row's interval, the score as a tick. */
function intervalBar(row: LeaderboardRow, lo: number, hi: number): Child {
  const i = row.score_interval;
  if (!i || hi <= lo) return el("span", { class: "muted", text: "—" });
  const at = (v: number) => `${(((v - lo) / (hi - lo)) * 100).toFixed(1)}%`;
  const label = `${round2(i.low)} to ${round2(i.high)}`;
  return el(
    "div",
    { class: "interval", role: "img", "aria-label": `95% interval ${label}`, title: label },
    [
      el("span", { style: `left:${at(i.low)};width:calc(${at(i.high)} - ${at(i.low)})` }),
      el("i", { style: `left:calc(${at(row.score)} - 1px)` }),
    ],
  );
}

export function standingsTable(rows: readonly LeaderboardRow[] | null, full = true): HTMLElement {
  if (!rows?.length) return muted("No standings yet.");
  const intervals = rows.flatMap((r) => (r.score_interval ? [r.score_interval] : []));
  const lo = Math.min(...intervals.map((i) => i.low));
  const hi = Math.max(...intervals.map((i) => i.high));
  const couldRank = (r: LeaderboardRow) =>
    r.rank_range && r.rank_range.best !== r.rank_range.worst
      ? `${r.rank_range.best}–${r.rank_range.worst}`
      : String(r.rank);
  if (!full)
    return table(
      ["#", "player", "score", "rounds", "episodes"],
      rows.map((r) => [
        r.rank,
        link(href.player(r.player_id), r.player_name),
        Math.round(r.score),
        r.rounds_played,
        r.episodes_played,
      ]),
      [0, 2, 3, 4],
    );
  return table(
    [
      "#",
      "player",
      r0label(rows),
      "±95%",
      "could rank",
      "P(above next)",
      "settled",
      "rounds",
      "episodes",
    ],
    rows.map((r) => [
      r.rank,
      link(href.player(r.player_id), r.player_name),
      Math.round(r.score),
      intervalBar(r, lo, hi),
      couldRank(r),
      r.p_above_next == null ? "" : `${Math.round(r.p_above_next * 100)}%`,
      r.settled
        ? el("span", { class: "settled", text: "✓", title: "settled", "aria-label": "settled" })
        : "",
      r.rounds_played,
      r.episodes_played,
    ]),
    [0, 2, 4, 5, 7, 8],
  );
}

const r0label = (rows: readonly LeaderboardRow[]) => rows[0]?.score_label ?? "score";

export function roundsTable(rounds: readonly Round[]): HTMLElement {
  if (!rounds.length) return muted("No rounds yet.");
  return table(
    ["round", "status", "when"],
    rounds.map((r) => [
      link(href.round(r.id), `#${r.round_number}`),
      r.status + (r.error ? ` (${r.error})` : ""),
      ago(r.completed_at ?? r.started_at ?? r.created_at),
    ]),
    [0],
  );
}

function startsIn(iso: string | null | undefined): string {
  if (!iso) return "waiting for a runner";
  const s = Math.round((Date.parse(iso) - Date.now()) / 1000);
  if (s <= 0) return "starts any moment";
  if (s < 60) return "starts in under a minute";
  if (s < 5400) return `starts in about ${Math.round(s / 60)} min`;
  return `starts in about ${Math.round(s / 3600)} h`;
}

/** The current round, when some of its episodes wait in the queue: how many, where, and when. */
export function waitingLine(rounds: readonly Round[]): HTMLElement | null {
  const round = rounds.find((r) => r.status === "running" && r.waiting);
  const w = round?.waiting;
  if (!round || !w) return null;
  return text(
    "p",
    `round #${round.round_number}: ${w.queued_episodes}${w.queued_episodes === 1 ? " episode" : " episodes"} queued, first at position ${w.queue_position}, ${startsIn(w.estimated_start_at)}`,
    "waiting",
  );
}

export function participantsLine(e: EpisodeRequest): HTMLElement {
  const names: Child[] = [];
  e.participants.forEach((p, i) => {
    if (i > 0) names.push(" vs ");
    names.push(
      p.player_id
        ? link(href.player(p.player_id), p.player_name ?? p.policy_name)
        : maybeLink(
            p.policy_version_id ? href.policyVersion(p.policy_version_id) : null,
            p.policy_name,
          ),
    );
  });
  return el("span", null, names);
}

export function replayCell(e: EpisodeRequest): Child {
  if (e.artifacts_expired_at) return el("span", { class: "muted", text: "expired" });
  // Signed in, the bare link would open as nobody (it carries no CSRF value): the episode's page
  // plays the replay as the visitor.
  if (!e.replay_url) return "";
  return signedIn() ? link(href.episode(e.id), "replay") : link(href.replay(e.id), "replay");
}

export function episodesTable(list: readonly EpisodeRequest[]): HTMLElement {
  if (!list.length) return muted("No episodes yet.");
  return table(
    ["players", "scores", "status", "replay"],
    list.map((e) => [
      participantsLine(e),
      e.scores.map((s) => round2(s.score)).join(" – "),
      link(href.episode(e.id), e.status + (e.error_type ? ` (${e.error_type})` : "")),
      replayCell(e),
    ]),
  );
}

/** "quiet: every rank settled" (or the feed's other quiet reason) while the division stands quiet. */
export async function quietNote(divisionId: string): Promise<string | null> {
  const events = await get<CompetitionEvent[]>(
    `/v2/competition-events?division_id=${q(divisionId)}&limit=50`,
  );
  const last = events.find(
    (e) => e.event_type === "round_started" || e.event_type === "division_quiet",
  );
  if (last?.event_type !== "division_quiet") return null;
  const reason = (last.payload as { reason?: unknown }).reason;
  return reason === "settled"
    ? "quiet: every rank settled"
    : `quiet: ${last.summary || last.headline}`;
}

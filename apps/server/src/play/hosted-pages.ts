// The two pages of a hosted game: `join_url` (a form that takes the next open slot, then goes to
// the coworld's player client on it) and `lobby_url` (the slots and the game's state, refreshed
// every few seconds). No script: a form post and a meta refresh are enough.
import { escapeHtml, page } from "../http/html.ts";
import { isFinal } from "./session-status.ts";
import type { SessionState } from "./sessions.ts";

const STATE_TEXT: Record<string, string> = {
  waiting: "Waiting for players",
  playing: "Playing",
  completed: "The game is over",
  failed: "The game failed",
  cancelled: "The game was ended",
};

function summary(state: SessionState): { open: number; joined: number; humans: number } {
  const humans = state.seats.filter((s) => s.kind === "human");
  const joined = humans.filter((s) => s.joined_at !== null).length;
  const open = humans.filter((s) => s.joined_at === null && s.user_id === null).length;
  return { open, joined, humans: humans.length };
}

export function joinPage(state: SessionState, lobbyUrl: string, error?: string): string {
  const { open, joined, humans } = summary(state);
  const ended = isFinal(state.row.status);
  const form =
    ended || open === 0
      ? `<p>${ended ? "This game has ended." : "Every open slot is taken."}</p>`
      : `<form method="post"><button type="submit">Join a slot</button></form>
<p>Programs join with <code>POST …/join</code> and play the slot's <code>player_url</code>.</p>`;
  return page(
    "Join a game",
    `<h1>Join a game</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p id="state" data-status="${escapeHtml(state.row.status)}">${escapeHtml(STATE_TEXT[state.row.status] ?? state.row.status)}: ${joined} of ${humans} player slot(s) joined, ${open} open.</p>
${form}
<p><a href="${escapeHtml(lobbyUrl)}">The lobby</a></p>`,
  );
}

export function lobbyPage(state: SessionState, joinUrl: string): string {
  const { open, joined, humans } = summary(state);
  const spectators = state.row.allow_spectators === 1;
  const rows = state.seats
    .map((s) => {
      const who =
        s.kind === "policy"
          ? `${escapeHtml(s.label)} (policy)`
          : s.joined_at === null
            ? s.user_id === null
              ? "open"
              : "reserved"
            : spectators
              ? escapeHtml(s.label)
              : "joined";
      return `<tr><td>${s.position}</td><td>${who}</td></tr>`;
    })
    .join("");
  const ended = isFinal(state.row.status);
  return page(
    "Game lobby",
    `${ended ? "" : '<meta http-equiv="refresh" content="3">'}<h1>Game lobby</h1>
<p id="state" data-status="${escapeHtml(state.row.status)}">${escapeHtml(STATE_TEXT[state.row.status] ?? state.row.status)}: ${joined} of ${humans} player slot(s) joined.</p>
${state.row.error ? `<p class="error">${escapeHtml(state.row.error)}</p>` : ""}
<table><tr><th>slot</th><th>player</th></tr>${rows}</table>
${!ended && open > 0 ? `<p><a href="${escapeHtml(joinUrl)}">Join a slot</a></p>` : ""}
${state.row.episode_request_id ? `<p>Episode <code>${escapeHtml(state.row.episode_request_id)}</code></p>` : ""}`,
  );
}

/**
 * A browser's answer for a game it cannot join through a page: missing, solo, full or ended read
 * alike (the join's own 404), so the page tells a stranger nothing about a session.
 */
export function noGamePage(sessionId: string): string {
  return page(
    "No such game · Gauntlet",
    `<h1>No such game to join</h1>
<p>There is no game <code>${escapeHtml(sessionId)}</code> here with an open slot for you.</p>`,
  );
}

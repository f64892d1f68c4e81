// Where the user is: a stack of screens, the top one shown. Esc pops it.
import type { Division, DivisionLeaderboard, LeaderboardRow, League } from "@gauntlet/core";

export type Route =
  /** openOnly: at start, a catalog of one league opens that league instead. */
  | { kind: "picker"; openOnly?: boolean }
  | {
      kind: "watch";
      league: League;
      division: Division;
      divisions: readonly Division[];
      /** The standings read with the route at start: drawn before the watch's own load. */
      standings?: DivisionLeaderboard;
    }
  | { kind: "player"; row: LeaderboardRow; division: Division }
  | { kind: "round"; roundId: string }
  | { kind: "episode"; episodeId: string };

export type WatchRoute = Extract<Route, { kind: "watch" }>;

/** The watch screen the stack is on or above, if any: its live data stays on while details are open. */
export function watchedDivision(stack: readonly Route[]): WatchRoute | null {
  for (let i = stack.length - 1; i >= 0; i -= 1) {
    const route = stack[i];
    if (route?.kind === "watch") return route;
  }
  return null;
}

export function push(stack: readonly Route[], route: Route): readonly Route[] {
  return [...stack, route];
}

/** One screen back; the first screen stays. */
export function pop(stack: readonly Route[]): readonly Route[] {
  return stack.length > 1 ? stack.slice(0, -1) : stack;
}

/** Replaces the top screen (another division of the same league). */
export function replaceTop(stack: readonly Route[], route: Route): readonly Route[] {
  return [...stack.slice(0, -1), route];
}

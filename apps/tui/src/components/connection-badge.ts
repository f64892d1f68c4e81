// How the screen is getting its news: over the socket, polling, or not at all; and "live" only
// while the watched division has a round in play (a connected screen of a quiet division says so).
import { Text } from "ink";
import { createElement as h } from "react";

import type { ConnectionState } from "../data/division-watch.ts";
import { useTheme } from "./theme.ts";

export function connectionLabel(state: ConnectionState, playing: boolean): string {
  switch (state.kind) {
    case "live":
      return playing ? "● live" : "● connected · quiet";
    case "connecting":
      return "◌ connecting";
    case "polling":
      return `◐ polling every ${Math.round(state.everyMs / 1000)}s`;
    case "stopped":
      return "○ idle";
  }
}

export function ConnectionBadge({ state, playing }: { state: ConnectionState; playing: boolean }) {
  const theme = useTheme();
  const color =
    state.kind === "live"
      ? playing
        ? theme.good
        : theme.muted
      : state.kind === "stopped"
        ? theme.muted
        : theme.warn;
  return h(Text, { color, wrap: "truncate-end" }, connectionLabel(state, playing));
}

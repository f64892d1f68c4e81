// How the screen is getting its news: live over the socket, polling, or not at all.
import { Text } from "ink";
import { createElement as h } from "react";

import type { ConnectionState } from "../data/division-watch.ts";
import { useTheme } from "./theme.ts";

export function connectionLabel(state: ConnectionState): string {
  switch (state.kind) {
    case "live":
      return "● live";
    case "connecting":
      return "◌ connecting";
    case "polling":
      return `◐ polling every ${Math.round(state.everyMs / 1000)}s`;
    case "stopped":
      return "○ idle";
  }
}

export function ConnectionBadge({ state }: { state: ConnectionState }) {
  const theme = useTheme();
  const color =
    state.kind === "live" ? theme.good : state.kind === "stopped" ? theme.muted : theme.warn;
  return h(Text, { color, wrap: "truncate-end" }, connectionLabel(state));
}

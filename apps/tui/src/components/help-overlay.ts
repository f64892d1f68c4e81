// `?`: every key, in the words of the screens that use it.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import { useTheme } from "./theme.ts";

export const KEYS: readonly (readonly [string, string])[] = [
  ["↑ ↓  j k", "move the selection"],
  ["PgUp PgDn  g G", "page, first, last"],
  ["Tab  Shift+Tab", "next / previous pane"],
  ["Enter", "open: division, player, round, episode"],
  ["Esc", "back (and close this help)"],
  ["← →  [ ]", "previous / next division of the league"],
  ["/", "filter the list (Enter keeps, Esc clears)"],
  ["?", "this help"],
  ["q  Ctrl+C", "quit"],
];

export function HelpOverlay({ width, height }: { width: number; height: number }): ReactElement {
  const theme = useTheme();
  const keyWidth = 18;
  return h(
    Box,
    { width, height, flexShrink: 0, justifyContent: "center", alignItems: "flex-start" },
    h(
      Box,
      {
        flexDirection: "column",
        borderStyle: "bold",
        borderColor: theme.focus,
        paddingX: 2,
        width: Math.min(width, 72),
        flexShrink: 0,
      },
      h(Text, { bold: true, color: theme.accent }, "Keys"),
      ...KEYS.map(([keys, what]) =>
        h(
          Box,
          { key: keys, height: 1 },
          h(Box, { width: keyWidth, flexShrink: 0 }, h(Text, { bold: true }, keys)),
          h(Text, { wrap: "truncate-end" }, what),
        ),
      ),
      h(Text, { color: theme.muted }, " "),
      h(
        Text,
        { color: theme.muted, wrap: "wrap" },
        "The standings, the round and the feed update by themselves. Esc or ? closes this help.",
      ),
    ),
  );
}

// The top line: where you are (league ▸ division ▸ detail), and on the right the connection and server.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { ConnectionState } from "../data/division-watch.ts";
import { ConnectionBadge } from "./connection-badge.ts";
import { useTheme } from "./theme.ts";

export interface HeaderProps {
  crumbs: readonly string[];
  connection: ConnectionState | null;
  /** The watched division has a round in play: only then is a connected screen "live". */
  playing: boolean;
  server: string;
  width: number;
}

export function Header({ crumbs, connection, playing, server, width }: HeaderProps): ReactElement {
  const theme = useTheme();
  const showServer = width >= 90;
  return h(
    Box,
    { width, height: 1, flexShrink: 0 },
    h(
      Box,
      { flexGrow: 1, flexShrink: 1, minWidth: 0 },
      h(
        Text,
        { wrap: "truncate-end" },
        h(Text, { bold: true, color: theme.accent }, "gauntlet"),
        crumbs.map((c) => ` ▸ ${c}`).join(""),
      ),
    ),
    connection
      ? h(Box, { flexShrink: 0, marginLeft: 1 }, h(ConnectionBadge, { state: connection, playing }))
      : null,
    showServer
      ? h(
          Box,
          { flexShrink: 0, marginLeft: 2 },
          h(Text, { color: theme.muted, dimColor: !theme.color, wrap: "truncate-start" }, server),
        )
      : null,
  );
}

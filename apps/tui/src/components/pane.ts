// A bordered pane with a title line; the focused pane has a heavy border (visible without colour).
import { Box, Text } from "ink";
import { createElement as h, type ReactElement, type ReactNode } from "react";

import { useTheme } from "./theme.ts";

export interface PaneProps {
  title: string;
  /** Shown after the title, muted (counts, the filter). */
  note?: string | undefined;
  focused: boolean;
  width?: number | undefined;
  height: number;
  flexGrow?: number | undefined;
  children?: ReactNode;
}

export function Pane({
  title,
  note,
  focused,
  width,
  height,
  flexGrow,
  children,
}: PaneProps): ReactElement {
  const theme = useTheme();
  return h(
    Box,
    {
      flexDirection: "column",
      borderStyle: focused ? "bold" : "round",
      borderColor: focused ? theme.focus : theme.border,
      paddingX: 1,
      height,
      ...(width !== undefined ? { width } : {}),
      ...(flexGrow !== undefined ? { flexGrow } : {}),
      flexShrink: 0,
      overflow: "hidden",
    },
    h(
      Box,
      { height: 1, flexShrink: 0 },
      h(
        Text,
        { wrap: "truncate-end" },
        h(Text, { bold: true, color: focused ? theme.accent : undefined }, title),
        note ? h(Text, { color: theme.muted, dimColor: !theme.color }, `  ${note}`) : null,
      ),
    ),
    children,
  );
}

/** Rows a pane of `height` leaves for its content (borders and title line). */
export function paneBodyRows(height: number): number {
  return Math.max(0, height - 3);
}

// The bottom two lines: the latest notice (errors, rate limits, surprises) and the keys of the screen.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { Notice } from "../data/notices.ts";
import { useTheme } from "./theme.ts";

export interface StatusBarProps {
  notice: Notice | null;
  hints: string;
  width: number;
}

export function StatusBar({ notice, hints, width }: StatusBarProps): ReactElement {
  const theme = useTheme();
  const color =
    notice?.level === "error" ? theme.bad : notice?.level === "warn" ? theme.warn : theme.muted;
  const mark = notice?.level === "error" ? "✗ " : notice?.level === "warn" ? "! " : "";
  return h(
    Box,
    { flexDirection: "column", width, height: 2, flexShrink: 0 },
    h(
      Box,
      { height: 1 },
      h(Text, { color, wrap: "truncate-end" }, notice ? `${mark}${notice.text}` : " "),
    ),
    h(
      Box,
      { height: 1 },
      h(Text, { color: theme.muted, dimColor: !theme.color, wrap: "truncate-end" }, hints),
    ),
  );
}

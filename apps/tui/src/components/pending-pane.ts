// A screen's one pane before its value is there: "Loading …" while it loads, or why it failed.
import { Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { Loaded } from "../hooks/use-load.ts";
import { Pane } from "./pane.ts";
import { useTheme } from "./theme.ts";

export interface PendingPaneProps {
  /** The screen's title ("Round"), which also names what is loading ("Loading the round…"). */
  title: string;
  data: Exclude<Loaded<unknown>, { state: "ready" }>;
  width: number;
  height: number;
}

export function PendingPane({ title, data, width, height }: PendingPaneProps): ReactElement {
  const theme = useTheme();
  return h(
    Pane,
    { title, focused: true, width, height },
    h(
      Text,
      { color: data.state === "failed" ? theme.bad : theme.muted, wrap: "truncate-end" },
      data.state === "failed" ? data.message : `Loading the ${title.toLowerCase()}…`,
    ),
  );
}

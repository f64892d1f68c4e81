// The filter being typed (or kept) in a list: "/ text▏".
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { TextFilter } from "../hooks/use-text-filter.ts";
import { useTheme } from "./theme.ts";

export function FilterLine({ filter }: { filter: TextFilter }): ReactElement | null {
  const theme = useTheme();
  if (!filter.typing && filter.text === "") return null;
  return h(
    Box,
    { height: 1, flexShrink: 0 },
    h(
      Text,
      { wrap: "truncate-end", color: filter.typing ? theme.accent : theme.muted },
      `/ ${filter.text}${filter.typing ? "▏" : ""}`,
      filter.typing ? h(Text, { color: theme.muted }, "  Enter keeps · Esc clears") : null,
    ),
  );
}

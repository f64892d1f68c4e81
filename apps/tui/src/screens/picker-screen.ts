// The league and division picker: the leagues the caller can see, each with its divisions.
// Enter on a league opens its top division; on a division, that division.
import { Box, Text, useInput } from "ink";
import { createElement as h, useEffect, useMemo } from "react";

import type { Division } from "@gauntlet/core";

import { FilterLine } from "../components/filter-line.ts";
import { Pane, paneBodyRows } from "../components/pane.ts";
import { useTheme } from "../components/theme.ts";
import type { CatalogEntry } from "../data/catalog.ts";
import type { Notices } from "../data/notices.ts";
import { useListCursor, windowStart } from "../hooks/use-list-cursor.ts";
import { useLoad } from "../hooks/use-load.ts";
import { useTextFilter } from "../hooks/use-text-filter.ts";

export interface PickerScreenProps {
  load: (signal: AbortSignal) => Promise<CatalogEntry[]>;
  notices: Notices;
  server: string;
  width: number;
  height: number;
  active: boolean;
  onOpen: (entry: CatalogEntry, division: Division) => void;
  /** Given at start: called instead of listing when there is exactly one league. */
  onOnlyLeague: ((entry: CatalogEntry, division: Division) => void) | null;
}

type Item =
  | { kind: "league"; entry: CatalogEntry }
  | { kind: "division"; entry: CatalogEntry; division: Division };

function leagueNote(entry: CatalogEntry): string {
  const { league, divisions } = entry;
  return [
    league.game.name,
    league.public ? "public" : "private",
    `${divisions.length} division${divisions.length === 1 ? "" : "s"}`,
    league.rounds_paused_at ? "paused" : null,
    league.is_game_of_week ? "game of the week" : null,
  ]
    .filter((x) => x !== null)
    .join(" · ");
}

export function PickerScreen({
  load,
  notices,
  server,
  width,
  height,
  active,
  onOpen,
  onOnlyLeague,
}: PickerScreenProps) {
  const theme = useTheme();
  const catalog = useLoad(notices, "leagues", load);
  const filter = useTextFilter();
  const entries = useMemo(() => (catalog.state === "ready" ? catalog.value : []), [catalog]);
  const items = useMemo(() => {
    const list: Item[] = [];
    for (const entry of entries) {
      const divisions = entry.divisions.filter((d) =>
        filter.matches(entry.league.name, d.name, entry.league.game.name),
      );
      if (divisions.length === 0 && !filter.matches(entry.league.name, entry.league.game.name))
        continue;
      list.push({ kind: "league", entry });
      for (const division of divisions) list.push({ kind: "division", entry, division });
    }
    return list;
  }, [entries, filter]);
  const cursor = useListCursor(items.length);
  const only = entries.length === 1 ? entries[0] : undefined;
  const onlyDivision = only?.divisions[0];
  useEffect(() => {
    if (only && onlyDivision && onOnlyLeague) onOnlyLeague(only, onlyDivision);
  }, [only, onlyDivision, onOnlyLeague]);

  useInput(
    (input, key) => {
      if (filter.handle(input, key)) return;
      if (cursor.handle(input, key)) return;
      if (key.return) {
        const item = items[cursor.index];
        if (!item) return;
        const division = item.kind === "division" ? item.division : item.entry.divisions[0];
        if (division) onOpen(item.entry, division);
        else notices.report("info", `${item.entry.league.name} has no divisions yet`);
      }
    },
    { isActive: active },
  );

  const body = paneBodyRows(height) - (filter.typing || filter.text ? 1 : 0);
  const start = windowStart(cursor.index, items.length, body);
  let content;
  if (catalog.state === "loading") content = h(Text, { color: theme.muted }, "Loading leagues…");
  else if (catalog.state === "failed")
    content = h(
      Text,
      { color: theme.bad, wrap: "wrap" },
      `Could not load the leagues: ${catalog.message}`,
    );
  else if (entries.length === 0)
    content = h(
      Text,
      { wrap: "wrap" },
      `No leagues you can see on ${server}. A server started with \`gauntlet-server start\` has a demo league; sign in to see your private leagues.`,
    );
  else if (items.length === 0)
    content = h(Text, { color: theme.muted }, "Nothing matches the filter.");
  else
    content = h(
      Box,
      { flexDirection: "column" },
      ...items.slice(start, start + body).map((item, i) => {
        const selected = start + i === cursor.index;
        const key = item.kind === "league" ? item.entry.league.id : item.division.id;
        if (item.kind === "league") {
          return h(
            Box,
            { key, height: 1 },
            h(
              Text,
              { wrap: "truncate-end", inverse: selected },
              selected ? "›" : " ",
              h(Text, { bold: true }, item.entry.league.name),
              h(Text, { color: selected ? undefined : theme.muted }, `  ${leagueNote(item.entry)}`),
            ),
          );
        }
        const d = item.division;
        return h(
          Box,
          { key, height: 1 },
          h(
            Text,
            { wrap: "truncate-end", inverse: selected },
            selected ? "›" : " ",
            `   ${d.name}`,
            h(
              Text,
              { color: selected ? undefined : theme.muted },
              `  level ${d.level}${d.type === "staging" ? " · staging" : ""}`,
            ),
          ),
        );
      }),
    );

  return h(
    Pane,
    {
      title: "Leagues",
      note: catalog.state === "ready" ? `${entries.length} on ${server}` : server,
      focused: true,
      width,
      height,
    },
    h(FilterLine, { filter }),
    content,
  );
}

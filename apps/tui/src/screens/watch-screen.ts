// The league playing: the current round, the division's standings, what beats what (where it
// fits) and the league's feed.
// Tab moves between the two panes, Enter opens the selected player or event, ← → change division.
import { Box, Text, useInput } from "ink";
import { createElement as h, useMemo, useState, type ReactElement } from "react";

import type { CompetitionEvent, Division, LeaderboardRow, League } from "@gauntlet/core";

import { FeedList } from "../components/feed-list.ts";
import { FilterLine } from "../components/filter-line.ts";
import { PairwiseMatrix, pairwiseRows } from "../components/pairwise-matrix.ts";
import { Pane, paneBodyRows } from "../components/pane.ts";
import { RoundBar } from "../components/round-bar.ts";
import { StandingsTable } from "../components/standings-table.ts";
import { useTheme } from "../components/theme.ts";
import type { WatchSnapshot } from "../data/division-watch.ts";
import { useListCursor } from "../hooks/use-list-cursor.ts";
import { useTextFilter } from "../hooks/use-text-filter.ts";
import { oneLine } from "../state/format.ts";
import { standingsSettled } from "../state/standings.ts";

export interface WatchScreenProps {
  league: League;
  division: Division;
  divisions: readonly Division[];
  snapshot: WatchSnapshot;
  width: number;
  height: number;
  now: number;
  active: boolean;
  onOpenPlayer: (row: LeaderboardRow) => void;
  onOpenEvent: (event: CompetitionEvent) => void;
  onSwitchDivision: (division: Division) => void;
}

type Focus = "standings" | "episodes" | "feed";

/** An episode line without the words the pane's title already says. */
const episodeText = (event: CompetitionEvent) =>
  event.headline.replace(/^Episode (completed|failed): /, "");

/** Side by side from this width; stacked below it. */
export const WIDE = 110;

export function WatchScreen(props: WatchScreenProps): ReactElement {
  const { division, divisions, snapshot, width, height, now, active } = props;
  const theme = useTheme();
  const [focus, setFocus] = useState<Focus>("standings");
  const standingsFilter = useTextFilter();
  const feedFilter = useTextFilter();
  const allRows = snapshot.standings?.rows;
  const rows = useMemo(
    () => (allRows ?? []).filter((r) => standingsFilter.matches(r.player_name)),
    [allRows, standingsFilter],
  );
  const feed = useMemo(
    () => snapshot.feed.filter((e) => feedFilter.matches(e.headline, e.summary, e.event_type)),
    [snapshot.feed, feedFilter],
  );
  const standingsCursor = useListCursor(rows.length);
  const feedCursor = useListCursor(feed.length);
  const episodesCursor = useListCursor(snapshot.episodes.length);
  const wide = width >= WIDE;
  // The episodes pane shows beside the feed on wide terminals only.
  const panes: readonly Focus[] = wide ? ["standings", "episodes", "feed"] : ["standings", "feed"];
  const shownFocus: Focus = panes.includes(focus) ? focus : "standings";
  const filter = shownFocus === "feed" ? feedFilter : standingsFilter;

  useInput(
    (input, key) => {
      if (shownFocus !== "episodes" && filter.handle(input, key)) return;
      if (key.tab) {
        const at = panes.indexOf(shownFocus);
        setFocus(panes[(at + (key.shift ? panes.length - 1 : 1)) % panes.length] ?? "standings");
        return;
      }
      const here = divisions.findIndex((d) => d.id === division.id);
      const step = key.leftArrow || input === "[" ? -1 : key.rightArrow || input === "]" ? 1 : 0;
      if (step !== 0) {
        const next = divisions[here + step];
        if (next) props.onSwitchDivision(next);
        return;
      }
      const cursor =
        shownFocus === "standings"
          ? standingsCursor
          : shownFocus === "episodes"
            ? episodesCursor
            : feedCursor;
      if (cursor.handle(input, key)) return;
      if (key.return) {
        if (shownFocus === "standings") {
          const row = rows[standingsCursor.index];
          if (row) props.onOpenPlayer(row);
        } else {
          const event =
            shownFocus === "episodes"
              ? snapshot.episodes[episodesCursor.index]
              : feed[feedCursor.index];
          if (event) props.onOpenEvent(event);
        }
      }
    },
    { isActive: active },
  );

  const bodyHeight = Math.max(6, height - 1);
  const here = divisions.findIndex((d) => d.id === division.id);
  const settled =
    snapshot.standings !== null && standingsSettled(snapshot.standings.rows) ? "settled" : "";
  const divisionNote = [settled, divisions.length > 1 ? `${here + 1}/${divisions.length} ← →` : ""]
    .filter((part) => part !== "")
    .join(" · ");
  const filterRows = (f: typeof filter) => (f.typing || f.text ? 1 : 0);

  let standingsHeight: number;
  let standingsWidth: number;
  let feedHeight: number;
  let feedWidth: number;
  let episodesHeight = 0;
  let matrixHeight = 0;
  // The standings come first: as many rows as they have, leaving the pane below at least 5 lines.
  const wanted = (allRows?.length ?? 1) + 1 + 3 + filterRows(standingsFilter);
  const standingsFirst = Math.max(Math.min(wanted, bodyHeight - 5), Math.min(bodyHeight, 6));
  if (wide) {
    standingsWidth = Math.max(60, Math.floor(width * 0.58));
    feedWidth = width - standingsWidth;
    standingsHeight = standingsFirst;
    episodesHeight = bodyHeight - standingsHeight;
    if (episodesHeight < 5) {
      standingsHeight = bodyHeight;
      episodesHeight = 0;
    }
    // What beats what sits below the standings when it fits whole and leaves the episodes 5 lines.
    const matrix =
      snapshot.pairwise && snapshot.pairwise.cells.length > 0 ? snapshot.pairwise : null;
    const matrixWanted = matrix ? pairwiseRows(matrix) + 3 : 0;
    if (matrix && episodesHeight - matrixWanted >= 5) {
      matrixHeight = matrixWanted;
      episodesHeight -= matrixWanted;
    }
    feedHeight = bodyHeight;
  } else {
    standingsWidth = width;
    feedWidth = width;
    standingsHeight = standingsFirst;
    feedHeight = bodyHeight - standingsHeight;
  }
  const innerWidth = (w: number) => Math.max(10, w - 4);

  const standingsBody =
    snapshot.standings === null
      ? h(Text, { color: theme.muted }, "Loading standings…")
      : snapshot.standings.rows.length === 0
        ? h(
            Text,
            { color: theme.muted, wrap: "wrap" },
            "No standings yet: they appear when the first round settles.",
          )
        : h(StandingsTable, {
            view: snapshot.standings,
            rows,
            selected: standingsCursor.index,
            focused: shownFocus === "standings",
            width: innerWidth(standingsWidth),
            height: paneBodyRows(standingsHeight) - filterRows(standingsFilter),
          });

  const standingsPane = h(
    Pane,
    {
      title: `Standings · ${division.name}`,
      note: divisionNote,
      focused: shownFocus === "standings",
      width: standingsWidth,
      height: standingsHeight,
    },
    h(FilterLine, { filter: standingsFilter }),
    standingsBody,
  );
  const feedPane =
    feedHeight >= 4
      ? h(
          Pane,
          {
            title: "Feed",
            note: feed.length > 0 ? oneLine(`${feed.length} events`) : undefined,
            focused: shownFocus === "feed",
            width: feedWidth,
            height: feedHeight,
          },
          h(FilterLine, { filter: feedFilter }),
          h(FeedList, {
            events: feed,
            selected: feedCursor.index,
            focused: shownFocus === "feed",
            width: innerWidth(feedWidth),
            height: paneBodyRows(feedHeight) - filterRows(feedFilter),
          }),
        )
      : null;

  const episodesPane =
    episodesHeight > 0
      ? h(
          Pane,
          {
            title: "Latest episodes",
            note: division.name,
            focused: shownFocus === "episodes",
            width: standingsWidth,
            height: episodesHeight,
          },
          h(FeedList, {
            events: snapshot.episodes,
            selected: episodesCursor.index,
            focused: shownFocus === "episodes",
            width: innerWidth(standingsWidth),
            height: paneBodyRows(episodesHeight),
            text: episodeText,
            empty: "No settled episodes yet.",
          }),
        )
      : null;

  const matrixPane =
    matrixHeight > 0 && snapshot.pairwise
      ? h(
          Pane,
          {
            title: "What beats what",
            note: `${snapshot.pairwise.episodes} episodes · win % · count`,
            focused: false,
            width: standingsWidth,
            height: matrixHeight,
          },
          h(PairwiseMatrix, {
            pairwise: snapshot.pairwise,
            width: innerWidth(standingsWidth),
            height: paneBodyRows(matrixHeight),
          }),
        )
      : null;

  return h(
    Box,
    { flexDirection: "column", width, height, flexShrink: 0 },
    h(RoundBar, { progress: snapshot.round, width, now }),
    wide
      ? h(
          Box,
          { flexDirection: "row", width, height: bodyHeight, flexShrink: 0 },
          h(
            Box,
            { flexDirection: "column", width: standingsWidth, flexShrink: 0 },
            standingsPane,
            matrixPane,
            episodesPane,
          ),
          feedPane,
        )
      : h(
          Box,
          { flexDirection: "column", width, height: bodyHeight, flexShrink: 0 },
          standingsPane,
          feedPane,
        ),
  );
}

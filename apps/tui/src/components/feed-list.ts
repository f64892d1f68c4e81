// The league's feed, newest first: time, a mark for the kind of event, and its headline.
import { Box, Text } from "ink";
import { createElement as h, type ReactElement } from "react";

import type { CompetitionEvent, CompetitionEventType } from "@gauntlet/core";

import { windowStart } from "../hooks/use-list-cursor.ts";
import { formatClock, oneLine } from "../state/format.ts";
import { useTheme, type Theme } from "./theme.ts";

export interface FeedListProps {
  events: readonly CompetitionEvent[];
  selected: number;
  focused: boolean;
  width: number;
  height: number;
  /** The line of an event; its headline by default. */
  text?: (event: CompetitionEvent) => string;
  /** Shown when there are no events. */
  empty?: string;
}

export function eventMark(type: CompetitionEventType): string {
  switch (type) {
    case "round_started":
      return "▶";
    case "round_completed":
      return "✓";
    case "round_failed":
    case "episode_failed":
    case "submission_rejected":
      return "✗";
    case "player_promoted":
      return "▲";
    case "player_relegated":
      return "▼";
    case "submission_placed":
      return "+";
    case "champion_changed":
      return "★";
    case "membership_retired":
      return "−";
    case "episode_completed":
      return "•";
    case "standings_changed":
      return "≡";
    case "division_quiet":
      return "◎";
    case "experience_request_created":
      return "◇";
    case "experience_request_completed":
      return "◆";
    case "experience_request_failed":
    case "experience_request_cancelled":
    case "tournament_failed":
    case "tournament_cancelled":
      return "✗";
    case "tournament_started":
      return "⚑";
    case "tournament_match_decided":
      return "⚔";
    case "tournament_completed":
      return "♛";
    case "ratings_recomputed":
      return "↻";
    case "episode_voided":
      return "⊘";
  }
}

function markColor(type: CompetitionEventType, theme: Theme): string | undefined {
  if (type === "player_promoted" || type === "round_completed" || type === "submission_placed")
    return theme.good;
  if (
    type === "player_relegated" ||
    type === "round_failed" ||
    type === "episode_failed" ||
    type === "submission_rejected"
  )
    return theme.bad;
  return theme.accent;
}

export function FeedList({
  events,
  selected,
  focused,
  width,
  height,
  text = (e) => e.headline,
  empty = "Nothing yet: rounds, promotions and submissions show here.",
}: FeedListProps): ReactElement {
  const theme = useTheme();
  if (events.length === 0)
    return h(Box, { height: 1 }, h(Text, { color: theme.muted, wrap: "truncate-end" }, empty));
  const start = windowStart(selected, events.length, height);
  const showTime = width >= 40;
  return h(
    Box,
    { flexDirection: "column", width, height, flexShrink: 0 },
    ...events.slice(start, start + height).map((event, i) => {
      const isSelected = start + i === selected;
      const highlight = isSelected && focused;
      return h(
        Box,
        { key: String(event.seq), height: 1, flexShrink: 0 },
        h(
          Text,
          { wrap: "truncate-end", inverse: highlight },
          isSelected ? "›" : " ",
          showTime
            ? h(
                Text,
                { color: highlight ? undefined : theme.muted },
                `${formatClock(event.created_at)} `,
              )
            : null,
          h(
            Text,
            { color: highlight ? undefined : markColor(event.event_type, theme) },
            `${eventMark(event.event_type)} `,
          ),
          oneLine(text(event)),
        ),
      );
    }),
  );
}

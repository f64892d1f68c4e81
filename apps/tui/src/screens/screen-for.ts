// The screen for the route on top of the stack. The app decides which route is on top and owns
// the keys every screen shares; this picks the screen and hands it what it draws with.
import { createElement as h, type ReactNode } from "react";

import type { CompetitionEvent, Division, LeaderboardRow } from "@gauntlet/core";

import type { CatalogEntry } from "../data/catalog.ts";
import type { WatchSnapshot } from "../data/division-watch.ts";
import type { Notices } from "../data/notices.ts";
import type { RouteLoader } from "../hooks/use-route-loader.ts";
import type { Route, WatchRoute } from "../state/routes.ts";
import { EpisodeScreen } from "./episode-screen.ts";
import { PickerScreen } from "./picker-screen.ts";
import { PlayerScreen } from "./player-screen.ts";
import { RoundScreen } from "./round-screen.ts";
import { WatchScreen } from "./watch-screen.ts";

export interface ScreenContext {
  loader: RouteLoader | null;
  snapshot: WatchSnapshot;
  notices: Notices;
  /** The server as the header shows it. */
  server: string;
  width: number;
  height: number;
  now: number;
  /** False while the help overlay is over the screen: it takes no keys. */
  active: boolean;
  open: (route: Route) => void;
  openEvent: (event: CompetitionEvent) => void;
  /** Puts another division of the same league on top. */
  switchDivision: (route: WatchRoute, division: Division) => void;
  /** Opens the watch of the only league there is, the picker one Esc below it. */
  openOnly: (route: WatchRoute) => void;
}

/** The player's line of the live standings (the one the screen was opened with until they load). */
function liveRow(snapshot: WatchSnapshot, row: LeaderboardRow): LeaderboardRow {
  return snapshot.standings?.rows.find((r) => r.player_id === row.player_id) ?? row;
}

export function screenFor(top: Route, c: ScreenContext): ReactNode {
  const { width, height, notices, active, open } = c;
  if (top.kind === "watch")
    return h(WatchScreen, {
      league: top.league,
      division: top.division,
      divisions: top.divisions,
      snapshot: c.snapshot,
      width,
      height,
      now: c.now,
      active,
      onOpenPlayer: (row: LeaderboardRow) => open({ kind: "player", row, division: top.division }),
      onOpenEvent: c.openEvent,
      onSwitchDivision: (division: Division) => c.switchDivision(top, division),
    });
  const loader = c.loader;
  // Detail screens load again whenever the watched division hears of something.
  const refreshKey = c.snapshot.events;
  if (top.kind === "picker" && loader?.kind === "picker")
    return h(PickerScreen, {
      load: loader.load,
      onOnlyLeague: top.openOnly
        ? (entry: CatalogEntry, division: Division) =>
            c.openOnly({
              kind: "watch",
              league: entry.league,
              division,
              divisions: entry.divisions,
            })
        : null,
      notices,
      server: c.server,
      width,
      height,
      active,
      onOpen: (entry: CatalogEntry, division: Division) =>
        open({ kind: "watch", league: entry.league, division, divisions: entry.divisions }),
    });
  if (top.kind === "player" && loader?.kind === "player")
    return h(PlayerScreen, {
      row: liveRow(c.snapshot, top.row),
      division: top.division,
      loadEpisodes: loader.load,
      refreshKey,
      notices,
      width,
      height,
      now: c.now,
      active,
      onOpenEpisode: (episodeId: string) => open({ kind: "episode", episodeId }),
    });
  if (top.kind === "round" && loader?.kind === "round")
    return h(RoundScreen, {
      load: loader.load,
      refreshKey,
      notices,
      width,
      height,
      active,
      onOpenEpisode: (episodeId: string) => open({ kind: "episode", episodeId }),
    });
  if (top.kind === "episode" && loader?.kind === "episode")
    return h(EpisodeScreen, {
      load: loader.load,
      refreshKey,
      baseUrl: c.server,
      notices,
      width,
      height,
    });
  return null;
}

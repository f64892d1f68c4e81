// What the screen on top of the stack loads, made once per route: screens reload when their
// loader changes, so it must keep its identity across renders.
import { useMemo } from "react";

import type { Gauntlet } from "@gauntlet/sdk";

import { loadCatalog } from "../data/catalog.ts";
import { loadEpisode, loadPlayer, loadRound } from "../data/loaders.ts";
import type { Route } from "../state/routes.ts";

export type RouteLoader =
  | { kind: "picker"; load: (signal: AbortSignal) => ReturnType<typeof loadCatalog> }
  | { kind: "player"; load: (signal: AbortSignal) => ReturnType<typeof loadPlayer> }
  | { kind: "round"; load: (signal: AbortSignal) => ReturnType<typeof loadRound> }
  | { kind: "episode"; load: (signal: AbortSignal) => ReturnType<typeof loadEpisode> };

export function useRouteLoader(client: Gauntlet, top: Route | null): RouteLoader | null {
  return useMemo((): RouteLoader | null => {
    if (top === null) return null;
    switch (top.kind) {
      case "picker":
        return { kind: top.kind, load: (signal) => loadCatalog(client, signal) };
      case "player":
        return {
          kind: top.kind,
          load: (signal) => loadPlayer(client, top.row.player_id, top.division.id, signal),
        };
      case "round":
        return { kind: top.kind, load: (signal) => loadRound(client, top.roundId, signal) };
      case "episode":
        return { kind: top.kind, load: (signal) => loadEpisode(client, top.episodeId, signal) };
      case "watch":
        return null;
    }
  }, [client, top]);
}

// The live data of the division being watched: one DivisionWatch per division, started when it
// is shown and stopped when another division (or none) is.
import { useEffect, useMemo, useSyncExternalStore } from "react";

import type { Division, DivisionLeaderboard, League } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { DivisionWatch, type WatchSnapshot } from "../data/division-watch.ts";
import type { Notices } from "../data/notices.ts";

const IDLE: WatchSnapshot = {
  standings: null,
  pairwise: null,
  round: null,
  feed: [],
  episodes: [],
  connection: { kind: "stopped" },
  lastSeq: null,
  events: 0,
};
const idleSubscribe = () => () => undefined;
const idleSnapshot = () => IDLE;

export interface WatchTarget {
  readonly league: League;
  readonly division: Division;
  /** Standings already read (the first screen's one request): shown at once. */
  readonly standings?: DivisionLeaderboard | undefined;
}

export function useDivisionWatch(
  client: Gauntlet,
  notices: Notices,
  target: WatchTarget | null,
): WatchSnapshot {
  const league = target?.league ?? null;
  const division = target?.division ?? null;
  // Keyed by ids: a new route object naming the same division keeps the same watch.
  const leagueId = league?.id;
  const divisionId = division?.id;
  const standings = target?.standings;
  const watch = useMemo(
    () =>
      league && division
        ? new DivisionWatch({
            client,
            league,
            division,
            notices,
            ...(standings !== undefined ? { standings } : {}),
          })
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, notices, leagueId, divisionId],
  );
  useEffect(() => {
    if (!watch) return;
    watch.start();
    return () => watch.stop();
  }, [watch]);
  return useSyncExternalStore(
    watch?.subscribe ?? idleSubscribe,
    watch?.getSnapshot ?? idleSnapshot,
  );
}

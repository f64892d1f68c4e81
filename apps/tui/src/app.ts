// The whole UI: a header, the screen on top of the navigation stack, and the status line.
// Written with createElement (`h`), not JSX: every package runs from its TypeScript sources on
// Node's built-in type stripping, which removes types but does not transform JSX (see
// docs/architecture.md, "The terminal UI without JSX").
// The app owns the keys every screen shares (q, Ctrl+C, ?, Esc) and keeps the watched
// division's live data running while detail screens are open above it.
import { Box, Text, useApp, useInput } from "ink";
import { createElement as h, useCallback, useEffect, useState, type ReactNode } from "react";

import type { CompetitionEvent, Division, DivisionStandingsView } from "@gauntlet/core";
import type { Gauntlet } from "@gauntlet/sdk";

import { ErrorBoundary } from "./components/error-boundary.ts";
import { Header } from "./components/header.ts";
import { HelpOverlay } from "./components/help-overlay.ts";
import { StatusBar } from "./components/status-bar.ts";
import { useTheme } from "./components/theme.ts";
import { describeError } from "./data/describe-error.ts";
import type { Notices } from "./data/notices.ts";
import { openTarget, type TargetFlags } from "./data/resolve-target.ts";
import { useDivisionWatch } from "./hooks/use-division-watch.ts";
import { useNotice } from "./hooks/use-notice.ts";
import { useNow } from "./hooks/use-now.ts";
import { useRouteLoader } from "./hooks/use-route-loader.ts";
import { useTerminalSize } from "./hooks/use-terminal-size.ts";
import { TypingContext } from "./hooks/use-text-filter.ts";
import { screenFor } from "./screens/screen-for.ts";
import { roundInPlay } from "./state/round-progress.ts";
import {
  pop,
  push,
  replaceTop,
  watchedDivision,
  type Route,
  type WatchRoute,
} from "./state/routes.ts";

export interface AppProps {
  client: Gauntlet;
  notices: Notices;
  /** The server as the header shows it. */
  server: string;
  flags: TargetFlags;
  /** The first screen's one request, already under way (runWatch starts it before Ink loads). */
  opening?: Promise<DivisionStandingsView> | null;
  /** Called with the exit code just before the app unmounts. */
  onExit: (code: number) => void;
}

/** The exit code of Ctrl+C, as for a shell's SIGINT. */
export const EXIT_INTERRUPTED = 130;

const HINTS: Record<Route["kind"] | "help" | "boot", string> = {
  boot: "q quit",
  picker: "↑↓ move · Enter open · / filter · ? help · q quit",
  watch: "↑↓ move · Tab pane · Enter open · ←→ division · / filter · Esc leagues · ? help · q quit",
  player: "↑↓ move · Enter episode · Esc back · ? help · q quit",
  round: "↑↓ move · Enter episode · Esc back · ? help · q quit",
  episode: "Esc back · ? help · q quit",
  help: "Esc close help · q quit",
};

function crumbsOf(stack: readonly Route[]): string[] {
  const crumbs: string[] = [];
  for (const route of stack) {
    if (route.kind === "picker") crumbs.push("leagues");
    else if (route.kind === "watch")
      crumbs.splice(0, crumbs.length, route.league.name, route.division.name);
    else if (route.kind === "player") crumbs.push(route.row.player_name);
    else if (route.kind === "round") crumbs.push("round");
    else crumbs.push("episode");
  }
  return crumbs;
}

export function App({ client, notices, server, flags, opening = null, onExit }: AppProps) {
  const { exit } = useApp();
  const theme = useTheme();
  const { columns, rows } = useTerminalSize();
  const narrowed = flags.league !== undefined || flags.division !== undefined;
  const [stack, setStack] = useState<readonly Route[]>(
    narrowed ? [] : [{ kind: "picker", openOnly: true }],
  );
  const [typing, setTyping] = useState(false);
  const [help, setHelp] = useState(false);
  const notice = useNotice(notices);
  const now = useNow();
  const watched = watchedDivision(stack);
  const snapshot = useDivisionWatch(client, notices, watched);

  // --league / --division: straight to that division, with the picker one Esc away.
  useEffect(() => {
    if (!narrowed) return;
    const abort = new AbortController();
    openTarget(client, flags, opening, abort.signal).then(
      (target) => {
        if (abort.signal.aborted) return;
        if (target.found)
          setStack([
            { kind: "picker" },
            {
              kind: "watch",
              league: target.league,
              division: target.division,
              divisions: target.divisions,
              ...(target.standings !== undefined ? { standings: target.standings } : {}),
            },
          ]);
        else {
          notices.report("error", target.message);
          setStack([{ kind: "picker" }]);
        }
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const line = describeError(error, "opening the division");
        notices.report(line.level, line.text);
        setStack([{ kind: "picker" }]);
      },
    );
    return () => abort.abort();
    // Flags are read once, at the start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const quit = useCallback(
    (code: number) => {
      onExit(code);
      exit();
    },
    [exit, onExit],
  );

  useInput((input, key) => {
    if (key.ctrl && input === "c") return quit(EXIT_INTERRUPTED);
    if (typing) return;
    if (input === "q") return quit(0);
    if (help) {
      if (key.escape || input === "?") setHelp(false);
      return;
    }
    if (input === "?") setHelp(true);
    else if (key.escape) setStack(pop);
  });

  const top = stack[stack.length - 1] ?? null;
  const screenHeight = Math.max(4, rows - 3);
  const open = useCallback((route: Route) => setStack((s) => push(s, route)), []);
  const openEvent = useCallback(
    (event: CompetitionEvent) => {
      if (event.episode_request_id !== null)
        open({ kind: "episode", episodeId: event.episode_request_id });
      else if (event.round_id !== null) open({ kind: "round", roundId: event.round_id });
      else notices.report("info", `nothing more to show for: ${event.headline}`);
    },
    [open, notices],
  );
  const loader = useRouteLoader(client, top);
  const openOnly = useCallback((route: WatchRoute) => setStack([{ kind: "picker" }, route]), []);
  const switchDivision = useCallback(
    (route: WatchRoute, division: Division) =>
      setStack((s) =>
        replaceTop(s, {
          kind: "watch",
          league: route.league,
          division,
          divisions: route.divisions,
        }),
      ),
    [],
  );

  let screen: ReactNode;
  if (top === null)
    screen = h(Text, { color: theme.muted }, `Opening ${flags.division ?? flags.league ?? ""}…`);
  else if (help) screen = h(HelpOverlay, { width: columns, height: screenHeight });
  else
    screen = screenFor(top, {
      loader,
      snapshot,
      notices,
      server,
      width: columns,
      height: screenHeight,
      now,
      active: true,
      open,
      openEvent,
      switchDivision,
      openOnly,
    });

  const onScreenError = useCallback(
    (error: unknown) => {
      const line = describeError(error, "drawing the screen");
      notices.report("error", line.text);
    },
    [notices],
  );

  return h(
    TypingContext.Provider,
    { value: setTyping },
    h(
      Box,
      { flexDirection: "column", width: columns, height: rows },
      h(Header, {
        crumbs: crumbsOf(stack),
        connection: watched ? snapshot.connection : null,
        playing: roundInPlay(snapshot.round),
        server,
        width: columns,
      }),
      h(
        Box,
        { width: columns, height: screenHeight, flexShrink: 0, overflow: "hidden" },
        h(
          ErrorBoundary,
          { key: `${stack.length}:${top?.kind ?? "boot"}`, onError: onScreenError },
          screen,
        ),
      ),
      h(StatusBar, { notice, hints: HINTS[help ? "help" : (top?.kind ?? "boot")], width: columns }),
    ),
  );
}

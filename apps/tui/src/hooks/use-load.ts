// Loads for the screens: the value, or an error that also goes to the status line. A new `load`
// function (another player, another round) starts over from "loading". Like the standings, a
// screen's value then stays current: it is loaded again when the watched division has news
// (`refresh.key` changes) and every `refresh.everyMs` until it is `settled`, keeping the value
// it shows until the new one arrives.
import { useEffect, useRef, useState } from "react";

import { describeError } from "../data/describe-error.ts";
import type { Notices } from "../data/notices.ts";

export type Loaded<T> =
  { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; message: string };

export interface Refresh<T> {
  /** Any change loads again (the count of live events of the watched division). */
  key?: unknown;
  /** Load again this often while the value is not settled. */
  everyMs?: number;
  /** Whether the value can no longer change (a finished round): polling stops. */
  settled?: (value: T) => boolean;
}

const LOADING = { state: "loading" } as const;

export function useLoad<T>(
  notices: Notices,
  what: string,
  load: (signal: AbortSignal) => Promise<T>,
  refresh: Refresh<T> = {},
): Loaded<T> {
  const [result, setResult] = useState<{ load: unknown; loaded: Loaded<T> } | null>(null);
  const [poll, setPoll] = useState(0);
  const { key, everyMs } = refresh;
  // Read when a load lands, so a new function each render does not load again.
  const settled = useRef(refresh.settled);
  useEffect(() => {
    settled.current = refresh.settled;
  });
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    load(abort.signal).then(
      (value) => {
        if (abort.signal.aborted) return;
        setResult({ load, loaded: { state: "ready", value } });
        if (everyMs !== undefined && settled.current?.(value) !== true)
          timer = setTimeout(() => setPoll((n) => n + 1), everyMs);
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const line = describeError(error, what);
        notices.report(line.level, line.text);
        // A failed refresh keeps what is shown (the line says why it is not newer) and tries again.
        setResult((shown) =>
          shown?.load === load && shown.loaded.state === "ready"
            ? shown
            : { load, loaded: { state: "failed", message: line.text } },
        );
        if (everyMs !== undefined) timer = setTimeout(() => setPoll((n) => n + 1), everyMs);
      },
    );
    return () => {
      abort.abort();
      if (timer !== null) clearTimeout(timer);
    };
  }, [load, notices, what, key, everyMs, poll]);
  return result !== null && result.load === load ? result.loaded : LOADING;
}

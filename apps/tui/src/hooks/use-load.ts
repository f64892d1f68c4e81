// One-off loads for the screens: the value, or an error that also goes to the status line. A new
// `load` function (another player, another round) starts over from "loading".
import { useEffect, useState } from "react";

import { describeError } from "../data/describe-error.ts";
import type { Notices } from "../data/notices.ts";

export type Loaded<T> =
  { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; message: string };

const LOADING = { state: "loading" } as const;

export function useLoad<T>(
  notices: Notices,
  what: string,
  load: (signal: AbortSignal) => Promise<T>,
): Loaded<T> {
  const [result, setResult] = useState<{ load: unknown; loaded: Loaded<T> } | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal).then(
      (value) => {
        if (!abort.signal.aborted) setResult({ load, loaded: { state: "ready", value } });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const line = describeError(error, what);
        notices.report(line.level, line.text);
        setResult({ load, loaded: { state: "failed", message: line.text } });
      },
    );
    return () => abort.abort();
  }, [load, notices, what]);
  return result !== null && result.load === load ? result.loaded : LOADING;
}

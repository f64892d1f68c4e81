// The status line while the SDK retries: what is wrong in words a watcher knows (no SDK method
// names), and the line gone again as soon as the server answers, so a notice about trouble never
// outlives the trouble.
import type { FetchLike, RetryEvent } from "@gauntlet/sdk";

import type { Notice, Notices } from "./notices.ts";

/** What the status line says while a request is retried. */
export function retryLine(event: RetryEvent): string {
  const seconds = Math.max(1, Math.round(event.delayMs / 1000));
  const again = `trying again in ${seconds}s`;
  switch (event.reason) {
    case "shared_budget":
    case "retry_after":
      return `the server asked us to slow down; ${again}`;
    case "server_error":
      return `the server had a problem; ${again}`;
    case "timeout":
      return `the server is slow to answer; ${again}`;
    case "connection":
      return `cannot reach the server; ${again}`;
  }
}

export interface ConnectionNotices {
  /** The client's onRetry: reports the trouble on the status line. */
  onRetry: (event: RetryEvent) => void;
  /** The client's fetch: any answer the server gives clears that line. */
  fetch: FetchLike;
}

export function connectionNotices(
  notices: Notices,
  inner: FetchLike = (input, init) => fetch(input, init),
): ConnectionNotices {
  let trouble: Notice | null = null;
  return {
    onRetry(event) {
      notices.report("warn", retryLine(event));
      trouble = notices.latest;
    },
    async fetch(input, init) {
      const response = await inner(input, init);
      // A 5xx or 429 is the trouble itself; anything else means the server is back.
      if (trouble !== null && response.status < 500 && response.status !== 429) {
        notices.clear(trouble);
        trouble = null;
      }
      return response;
    },
  };
}

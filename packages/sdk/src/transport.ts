// One try of one request, on ky. ky's own retry is off (`retry: 0`): the SDK decides
// retries itself (retry.ts) because they depend on the 429 body (shared budget or not), on
// an Idempotency-Key being present, on a deadline across tries and on the caller's veto,
// none of which ky's method/status lists can express. The timeout is the SDK's too, so it
// covers reading the body and can be told apart from the caller's own abort.
import ky, { type KyInstance } from "ky";

import type { RawReply } from "./decode.ts";
import { APIConnectionError, APITimeoutError, APIUserAbortError } from "./errors.ts";
import type { FetchLike } from "./options.ts";

export const http: KyInstance = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });

export interface Attempt {
  operationId: string;
  url: string;
  method: string;
  headers: Headers;
  body: RequestInit["body"];
  redirect: NonNullable<RequestInit["redirect"]>;
  /** Read a 2xx body as bytes instead of text. */
  bytes: boolean;
  timeoutMs: number;
  fetch: FetchLike | undefined;
  signal: AbortSignal | undefined;
}

/** The root cause, e.g. `connect ECONNREFUSED 127.0.0.1:8787`, under ky's and fetch's wrappers. */
function describe(error: unknown): string {
  let root = error;
  for (let depth = 0; depth < 10 && root instanceof Error && root.cause !== undefined; depth++)
    root = root.cause;
  return root instanceof Error ? root.message : String(root);
}

export async function send(attempt: Attempt): Promise<RawReply> {
  const timeout = new AbortController();
  const timer =
    attempt.timeoutMs > 0 ? setTimeout(() => timeout.abort(), attempt.timeoutMs) : undefined;
  const signal = attempt.signal
    ? AbortSignal.any([attempt.signal, timeout.signal])
    : timeout.signal;
  try {
    const response = await http(attempt.url, {
      method: attempt.method,
      headers: attempt.headers,
      body: attempt.body,
      redirect: attempt.redirect,
      signal,
      ...(attempt.fetch ? { fetch: attempt.fetch } : {}),
    });
    const ok = response.status >= 200 && response.status < 300;
    const payload =
      attempt.bytes && ok ? new Uint8Array(await response.arrayBuffer()) : await response.text();
    return { status: response.status, headers: response.headers, payload };
  } catch (error) {
    if (attempt.signal?.aborted)
      throw new APIUserAbortError(`${attempt.operationId}: aborted by the caller`, {
        cause: attempt.signal.reason,
      });
    if (timeout.signal.aborted)
      throw new APITimeoutError(
        `${attempt.operationId}: no complete response within ${attempt.timeoutMs} ms`,
        { cause: error },
      );
    throw new APIConnectionError(
      `${attempt.operationId}: ${attempt.method} ${attempt.url} failed: ${describe(error)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

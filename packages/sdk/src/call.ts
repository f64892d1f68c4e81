// One call of one operation: encode, try, retry as retry.ts decides, decode.
import {
  ELEVATION_HEADER,
  readBudgetSnapshot,
  type BudgetSnapshot,
  type OperationDef,
} from "@gauntlet/core";

import { decodeReply, parseErrorBody } from "./decode.ts";
import { encodeRequest } from "./encode.ts";
import {
  APIUserAbortError,
  errorFromResponse,
  isAPIConnectionError,
  type GauntletError,
} from "./errors.ts";
import type { RequestConfig, RequestOptions } from "./options.ts";
import { decideRetry, IDEMPOTENT_METHODS, sleep } from "./retry.ts";
import { send } from "./transport.ts";

export interface CallMeta {
  status: number;
  headers: Headers;
  requestId: string | null;
  budget: BudgetSnapshot | null;
  /** Tries made, the successful one included. */
  attempts: number;
}

export interface CallOutcome {
  data: unknown;
  meta: CallMeta;
}

export interface CallContext {
  config: RequestConfig;
  options: RequestOptions;
  /** Told of every budget snapshot a response carries, errors included. */
  onBudget: (snapshot: BudgetSnapshot) => void;
}

const ACCEPT: Record<string, string> = {
  json: "application/json",
  html: "text/html",
  text: "text/plain",
  bytes: "*/*",
};

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export async function callOperation(
  op: OperationDef,
  input: Readonly<Record<string, unknown>> | undefined,
  ctx: CallContext,
): Promise<CallOutcome> {
  const { config, options } = ctx;
  const encoded = encodeRequest(op, input);
  const headers = new Headers(config.headers);
  headers.set("accept", ACCEPT[op.responseKind ?? "json"] ?? "*/*");
  if (encoded.contentType) headers.set("content-type", encoded.contentType);
  for (const [name, value] of Object.entries(encoded.headers)) headers.set(name, value);
  if (config.token !== null && op.auth !== "none") {
    headers.set("authorization", `Bearer ${config.token}`);
    if (config.elevated) headers.set(ELEVATION_HEADER, "true");
  }
  // One key per call, the same on every retry, so the server does the write at most once.
  const idempotencyKey =
    options.idempotencyKey ?? (op.idempotent ? newIdempotencyKey() : undefined);
  if (idempotencyKey !== undefined) headers.set("idempotency-key", idempotencyKey);
  const replayable = IDEMPOTENT_METHODS.has(op.method) || idempotencyKey !== undefined;

  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    let error: GauntletError;
    try {
      const reply = await send({
        operationId: op.id,
        url: config.baseUrl + encoded.target,
        method: op.method,
        headers,
        body: encoded.body,
        redirect: op.status === 302 ? "manual" : "follow",
        bytes: op.responseKind === "bytes",
        timeoutMs: config.timeoutMs,
        fetch: config.fetch,
        signal: options.signal,
      });
      const budget = readBudgetSnapshot(reply.headers);
      if (budget) ctx.onBudget(budget);
      const redirected = op.status === 302 && reply.status >= 300 && reply.status < 400;
      if ((reply.status >= 200 && reply.status < 300) || redirected) {
        const meta = {
          status: reply.status,
          headers: reply.headers,
          requestId: reply.headers.get("x-request-id"),
          budget,
          attempts: attempt,
        };
        return { data: decodeReply(op, reply), meta };
      }
      error = errorFromResponse({
        status: reply.status,
        headers: reply.headers,
        body: parseErrorBody(reply.payload),
        operationId: op.id,
      });
    } catch (caught) {
      if (!isAPIConnectionError(caught)) throw caught;
      error = caught;
    }
    const decision = decideRetry({
      error,
      attempt,
      elapsedMs: performance.now() - started,
      policy: config.retry,
      replayable,
    });
    if (!decision.retry) throw error;
    if (
      config.onRetry?.({
        operationId: op.id,
        attempt,
        delayMs: decision.delayMs,
        reason: decision.reason,
        error,
      }) === false
    )
      throw error;
    try {
      await sleep(decision.delayMs, options.signal);
    } catch (reason) {
      throw new APIUserAbortError(`${op.id}: aborted by the caller while waiting to retry`, {
        cause: reason,
      });
    }
  }
}

// Client and per-request settings, and how they are resolved: explicit option →
// GAUNTLET_SERVER / GAUNTLET_TOKEN → the credentials the CLI's login saved. There is no
// built-in host: with none configured a call fails with a GauntletConfigError.
import {
  DEFAULT_PACING,
  normalizeServerUrl,
  resolveServer,
  resolveToken,
  type Env,
} from "@gauntlet/core";

import { GauntletConfigError, type GauntletError } from "./errors.ts";

export interface RetryOptions {
  /** Retries after the first try; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** No retry is scheduled to start later than this after the first try. Default 120 000 ms. */
  deadlineMs?: number;
  /** At most this much random wait is added to a 429's Retry-After. Default 1 000 ms. */
  maxJitterMs?: number;
  /** First backoff after a 5xx or a connection error; doubles on each retry. Default 500 ms. */
  backoffBaseMs?: number;
  /** Upper bound of one backoff. Default 8 000 ms. */
  backoffMaxMs?: number;
}

export type RetryPolicy = Readonly<Required<RetryOptions>>;

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxRetries: DEFAULT_PACING.maxAttempts - 1,
  deadlineMs: DEFAULT_PACING.deadlineMs,
  maxJitterMs: DEFAULT_PACING.maxJitterMs,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
});

export type RetryReason =
  "shared_budget" | "retry_after" | "server_error" | "connection" | "timeout";

export interface RetryEvent {
  operationId: string;
  /** The try that failed; 1 for the first. */
  attempt: number;
  /** The wait before the next try. */
  delayMs: number;
  reason: RetryReason;
  error: GauntletError;
}

/** Sees each retry before its wait; returning `false` vetoes it (the error is thrown). Any other result lets it go ahead. */
export type OnRetry = (event: RetryEvent) => unknown;

export type FetchLike = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

interface CommonOptions {
  /** The server's base address, with its base path, e.g. `https://gauntlet.example.com/observatory`. */
  baseUrl?: string;
  /** Bearer token; `null` sends none (anonymous). */
  token?: string | null;
  /** Milliseconds one try may take, body included; 0 for none. Default 30 000. */
  timeout?: number;
  /** A number is `maxRetries`. */
  retries?: number | RetryOptions;
  fetch?: FetchLike;
  /** Sent with every request. */
  headers?: Record<string, string>;
  onRetry?: OnRetry;
  /**
   * Act with your admin powers: sends `X-Use-Elevated-Privileges: true` with the token. Without
   * it an admin's requests are an ordinary user's (default false).
   */
  elevated?: boolean;
}

export interface ClientOptions extends CommonOptions {
  /** Where GAUNTLET_SERVER and GAUNTLET_TOKEN are read; `process.env` by default. */
  env?: Env;
  /** Read the credentials the CLI's login saved (default true). */
  useSavedCredentials?: boolean;
  /** The credentials file; the CLI's by default. */
  credentialsPath?: string;
}

export interface RequestOptions extends CommonOptions {
  signal?: AbortSignal;
  /** For writes: replaces the key generated for operations that accept one. */
  idempotencyKey?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export const NO_SERVER_MESSAGE =
  "no Gauntlet server configured: pass `baseUrl` to the client, set GAUNTLET_SERVER, or sign in with `gauntlet auth login --server <url>`";

export interface ClientConfig {
  readonly baseUrl: string | null;
  readonly token: string | null;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly fetch: FetchLike | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly onRetry: OnRetry | undefined;
  readonly elevated: boolean;
  readonly lookup: { env?: Env; path?: string; useSavedCredentials?: boolean };
}

/** The settings of one request: the client's, overridden by the request's. */
export interface RequestConfig {
  readonly baseUrl: string;
  readonly token: string | null;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly fetch: FetchLike | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly onRetry: OnRetry | undefined;
  readonly elevated: boolean;
}

function checkMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new GauntletConfigError(
      `${name} must be a non-negative number of milliseconds, got ${value}`,
    );
  return value;
}

export function mergeRetry(
  base: RetryPolicy,
  over: number | RetryOptions | undefined,
): RetryPolicy {
  if (over === undefined) return base;
  const o: RetryOptions = typeof over === "number" ? { maxRetries: over } : over;
  const merged: Required<RetryOptions> = {
    maxRetries: o.maxRetries ?? base.maxRetries,
    deadlineMs: o.deadlineMs ?? base.deadlineMs,
    maxJitterMs: o.maxJitterMs ?? base.maxJitterMs,
    backoffBaseMs: o.backoffBaseMs ?? base.backoffBaseMs,
    backoffMaxMs: o.backoffMaxMs ?? base.backoffMaxMs,
  };
  if (!Number.isInteger(merged.maxRetries) || merged.maxRetries < 0)
    throw new GauntletConfigError(
      `retries must be a non-negative integer, got ${merged.maxRetries}`,
    );
  for (const key of ["deadlineMs", "maxJitterMs", "backoffBaseMs", "backoffMaxMs"] as const)
    checkMs(`retries.${key}`, merged[key]);
  return Object.freeze(merged);
}

function configError(error: unknown): GauntletConfigError {
  return new GauntletConfigError(error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

export function resolveClientConfig(options: ClientOptions): ClientConfig {
  const lookup = {
    env: options.env,
    path: options.credentialsPath,
    useSavedCredentials: options.useSavedCredentials,
  };
  try {
    const server = resolveServer({ ...lookup, explicit: options.baseUrl });
    const token = resolveToken({ ...lookup, server: server?.url ?? null, explicit: options.token });
    return {
      baseUrl: server?.url ?? null,
      token: token?.token ?? null,
      timeoutMs: checkMs("timeout", options.timeout ?? DEFAULT_TIMEOUT_MS),
      retry: mergeRetry(DEFAULT_RETRY, options.retries),
      fetch: options.fetch,
      headers: { ...options.headers },
      onRetry: options.onRetry,
      elevated: options.elevated ?? false,
      lookup,
    };
  } catch (error) {
    throw error instanceof GauntletConfigError ? error : configError(error);
  }
}

/**
 * A request's own `baseUrl` pointing at another server does not inherit the client's
 * token: that server gets its own (request option → GAUNTLET_TOKEN → saved for it).
 */
export function resolveRequestConfig(
  client: ClientConfig,
  options: RequestOptions = {},
): RequestConfig {
  let baseUrl = client.baseUrl;
  let token = client.token;
  try {
    if (options.baseUrl !== undefined) {
      const url = normalizeServerUrl(options.baseUrl);
      if (url !== client.baseUrl)
        token = resolveToken({ ...client.lookup, server: url })?.token ?? null;
      baseUrl = url;
    }
  } catch (error) {
    throw configError(error);
  }
  if (options.token !== undefined) token = options.token;
  if (baseUrl === null) throw new GauntletConfigError(NO_SERVER_MESSAGE);
  return {
    baseUrl,
    token,
    timeoutMs:
      options.timeout === undefined ? client.timeoutMs : checkMs("timeout", options.timeout),
    retry: mergeRetry(client.retry, options.retries),
    fetch: options.fetch ?? client.fetch,
    headers: options.headers ? { ...client.headers, ...options.headers } : client.headers,
    onRetry: options.onRetry ?? client.onRetry,
    elevated: options.elevated ?? client.elevated,
  };
}

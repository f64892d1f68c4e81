// Live events over the WebSocket `GET /v2/events`: subscribe to topics, get each event once,
// in order. A dropped connection is reopened with backoff, asking for the events after the
// last `seq` seen; events already delivered are not delivered again.
// Node's global WebSocket (undici) is used; it accepts headers, so the token travels as
// `Authorization: Bearer …` like every HTTP call.
import {
  contract,
  LiveControlMessage,
  LiveEventMessage,
  type LiveEvent,
  type SubscribeMessage,
} from "@gauntlet/core";

import { LiveEventsError } from "./errors.ts";

export type { LiveEvent } from "@gauntlet/core";

export type SubscriptionStatus = "connecting" | "open" | "reconnecting" | "closed";

export interface ReconnectOptions {
  /** First wait after a drop; doubles after each failed reconnect. Default 500 ms. */
  baseDelayMs?: number;
  /** Default 15 000 ms. */
  maxDelayMs?: number;
  /** Reconnects in a row without a successful open before giving up. Default unlimited. */
  maxAttempts?: number;
}

export interface SubscribeOptions {
  onEvent: (event: LiveEvent) => void;
  /** Server notices, refused connections, undecodable messages; the subscription goes on unless closed. */
  onError?: (error: LiveEventsError) => void;
  onStatus?: (status: SubscriptionStatus) => void;
  /** Resume after this sequence number (events with a greater `seq` only). */
  sinceSeq?: number;
  /** Each event's `data` as a CompactCompetitionEvent: `league_id` and `division_id` in place of
   * the embedded league and division (about a sixth of the bytes). Default false. */
  compact?: boolean;
  reconnect?: ReconnectOptions;
  signal?: AbortSignal;
}

export interface EventSubscription {
  /** The `seq` of the last event delivered, or null. */
  readonly lastSeq: number | null;
  readonly status: SubscriptionStatus;
  /** Stops for good; no reconnect follows. */
  close(): void;
  /** Settles once the subscription has closed for good. */
  readonly closed: Promise<void>;
}

/** 1008 (policy: e.g. authentication) and 4400–4499 (client errors) are not retried. */
function isTerminalClose(code: number): boolean {
  return code === 1008 || (code >= 4400 && code < 4500);
}

/** The WebSocket address of the contract's `subscribeEvents` operation on a server. */
export function eventsUrl(baseUrl: string): string {
  const url = new URL(`${baseUrl}${contract.subscribeEvents.path}`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

export interface Connection {
  url: string;
  token: string | null;
}

export function subscribe(
  connection: Connection,
  topics: readonly string[],
  options: SubscribeOptions,
): EventSubscription {
  if (topics.length === 0) throw new TypeError("subscribe: give at least one topic");
  const baseDelay = options.reconnect?.baseDelayMs ?? 500;
  const maxDelay = options.reconnect?.maxDelayMs ?? 15_000;
  const maxAttempts = options.reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY;
  let lastSeq: number | null = options.sinceSeq ?? null;
  let status: SubscriptionStatus = "connecting";
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let finished = false;
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (settle = resolve));

  const setStatus = (next: SubscriptionStatus) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };
  const report = (error: LiveEventsError) => options.onError?.(error);

  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", finish);
    const open = socket;
    socket = null;
    if (open && open.readyState <= WebSocket.OPEN) open.close(1000, "client closed");
    setStatus("closed");
    settle();
  };

  const handleMessage = (raw: unknown) => {
    let message: unknown;
    try {
      message = JSON.parse(
        typeof raw === "string" ? raw : new TextDecoder().decode(raw as ArrayBuffer),
      );
    } catch {
      report(new LiveEventsError("live events: a message that is not JSON"));
      return;
    }
    const event = LiveEventMessage.safeParse(message);
    if (event.success) {
      // After a resume the server may repeat what was already delivered.
      if (lastSeq !== null && event.data.seq <= lastSeq) return;
      lastSeq = event.data.seq;
      options.onEvent(event.data);
      return;
    }
    const control = LiveControlMessage.safeParse(message);
    if (control.success && control.data.type === "error")
      report(new LiveEventsError(`live events: ${control.data.message ?? "server error"}`));
  };

  const connect = () => {
    if (finished) return;
    const init = connection.token
      ? { headers: { authorization: `Bearer ${connection.token}` } }
      : undefined;
    let ws: WebSocket;
    try {
      ws = new WebSocket(connection.url, init);
    } catch (error) {
      report(
        new LiveEventsError(
          `live events: cannot open ${connection.url}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      finish();
      return;
    }
    socket = ws;
    ws.binaryType = "arraybuffer";
    ws.onopen = () => {
      failures = 0;
      const subscribeMessage: SubscribeMessage = {
        type: "subscribe",
        topics: [...topics],
        ...(lastSeq !== null ? { since_seq: lastSeq } : {}),
        ...(options.compact ? { compact: true } : {}),
      };
      ws.send(JSON.stringify(subscribeMessage));
      setStatus("open");
    };
    ws.onmessage = (message) => handleMessage(message.data);
    ws.onclose = (close) => {
      if (socket !== ws) return;
      socket = null;
      if (finished) return;
      if (isTerminalClose(close.code)) {
        report(
          new LiveEventsError(
            `live events: the server closed the connection (${close.code}${close.reason ? ` ${close.reason}` : ""})`,
            close.code,
          ),
        );
        finish();
        return;
      }
      failures += 1;
      if (failures > maxAttempts) {
        report(
          new LiveEventsError(`live events: gave up after ${maxAttempts} reconnects`, close.code),
        );
        finish();
        return;
      }
      setStatus("reconnecting");
      const ceiling = Math.min(maxDelay, baseDelay * 2 ** (failures - 1));
      timer = setTimeout(connect, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
    };
  };

  if (options.signal?.aborted) {
    finish();
  } else {
    options.signal?.addEventListener("abort", finish, { once: true });
    options.onStatus?.("connecting");
    connect();
  }

  return {
    get lastSeq() {
      return lastSeq;
    },
    get status() {
      return status;
    },
    close: finish,
    closed,
  };
}

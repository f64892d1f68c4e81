// Test support: a live-events WebSocket client (Node's own WebSocket) that keeps every message
// and waits for the ones a test expects.
import { LiveEventMessage, settled, type LiveEvent } from "@gauntlet/core";

import { PATIENCE_MS } from "./patience.ts";

export interface TestSocket {
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Every message so far, parsed. */
  readonly messages: Record<string, unknown>[];
  /** Live events so far (messages with a seq). */
  events(): LiveEvent[];
  send(message: unknown): void;
  /** The first message (from the start) that matches, waiting for it if need be. */
  next(
    match: (message: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Subscribes and waits for the server's `subscribed` answer. */
  subscribe(
    topics: string[],
    sinceSeq?: number,
    options?: { compact?: boolean },
  ): Promise<{ topics: string[]; seq: number }>;
  close(): void;
}

export function eventsUrl(base: string): string {
  return `${base.replace(/^http/, "ws")}/v2/events`;
}

/** `headers`: more of the upgrade's headers (a browser's `Origin` and `Cookie`). */
export function openSocket(
  base: string,
  token?: string,
  headers?: Record<string, string>,
): TestSocket {
  const sent = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers };
  const ws = new WebSocket(
    eventsUrl(base),
    Object.keys(sent).length > 0 ? { headers: sent } : undefined,
  );
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  const opened = new Promise<void>((resolve, reject) => {
    ws.addEventListener("open", () => resolve());
    ws.addEventListener("error", () => reject(new Error("the WebSocket did not open")));
  });
  // A refused upgrade rejects `opened`; a test that expects it awaits that rejection.
  void settled(opened);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
  );
  ws.addEventListener("message", (e) => {
    messages.push(JSON.parse(String(e.data)) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  const next = (match: (m: Record<string, unknown>) => boolean, timeoutMs = PATIENCE_MS) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    opened,
    closed,
    messages,
    events: () =>
      messages.flatMap((m) => {
        const parsed = LiveEventMessage.safeParse(m);
        return parsed.success ? [parsed.data] : [];
      }),
    send: (message) => ws.send(JSON.stringify(message)),
    next,
    async subscribe(topics, sinceSeq, options) {
      await opened;
      // The server answers subscribe messages in order: ours is the first answer after those
      // already in (a test waits for the answers of messages it sent raw before calling this).
      const acks = () => messages.filter((m) => m.type === "subscribed");
      const before = acks().length;
      ws.send(
        JSON.stringify({
          type: "subscribe",
          topics,
          ...(sinceSeq === undefined ? {} : { since_seq: sinceSeq }),
          ...(options?.compact === undefined ? {} : { compact: options.compact }),
        }),
      );
      await next(() => acks().length > before);
      const ack = acks()[before] ?? {};
      return { topics: ack.topics as string[], seq: ack.seq as number };
    },
    close: () => ws.close(),
  };
}

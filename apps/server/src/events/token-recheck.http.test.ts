// A live-events socket opened with `X-Auth-Token` (the hosted service's cogames client's header)
// is held to its token like one opened with a bearer token: a token revoked where this replica did
// not hear of it (another replica, a lost signal) is looked up again on the next subscribe, once
// the token cache has forgotten it, and the connection ends (4401) instead of subscribing on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { eventsUrl } from "../../testing/test-socket.ts";
import { CLOSE_TOKEN_REVOKED } from "./live-connection.ts";

/** Longer than the token cache keeps a lookup (auth/authenticate.ts, CACHE_TTL_MS). */
const CACHE_FORGETS_MS = 10_500;

let t: TestServer;
const sockets = new Set<WebSocket>();

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await t?.close();
});

interface Answers {
  ws: WebSocket;
  /** The next message (or the close code) after the call. */
  next(): Promise<{ type?: string; code?: number }>;
}

async function connect(headers: Record<string, string>): Promise<Answers> {
  const ws = new WebSocket(eventsUrl(t.url), { headers });
  sockets.add(ws);
  const queue: { type?: string; code?: number }[] = [];
  const waiting: ((m: { type?: string; code?: number }) => void)[] = [];
  const push = (m: { type?: string; code?: number }) => {
    const wake = waiting.shift();
    if (wake) wake(m);
    else queue.push(m);
  };
  ws.on("message", (data: Buffer) => push(JSON.parse(data.toString("utf8")) as { type?: string }));
  ws.on("close", (code) => push({ code }));
  await new Promise((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  return {
    ws,
    next: () => {
      const first = queue.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

const subscribe = (ws: WebSocket) =>
  ws.send(JSON.stringify({ type: "subscribe", topics: ["episode-requests:mine"] }));

describe("a live-events socket's token on later subscribes", () => {
  it.each([
    ["X-Auth-Token", (token: string) => ({ "x-auth-token": token })],
    ["Authorization", (token: string) => ({ authorization: `Bearer ${token}` })],
  ])(
    "a token sent as %s and revoked unheard ends the connection at the next subscribe",
    async (_header, headers) => {
      const user = await t.newUser();
      const socket = await connect(headers(user.token));
      subscribe(socket.ws);
      expect(await socket.next()).toMatchObject({ type: "subscribed" });
      // Revoked in the store, as another replica does; no signal reaches this one.
      await t.server.store.db
        .updateTable("tokens")
        .set({ revoked_at: new Date().toISOString() })
        .where("user_id", "=", user.id)
        .execute();
      await new Promise((resolve) => setTimeout(resolve, CACHE_FORGETS_MS));
      subscribe(socket.ws);
      expect(await socket.next()).toEqual({ code: CLOSE_TOKEN_REVOKED });
    },
    30_000,
  );
});

// The player process of a seat a person plays (a hosted play session): instead of a policy,
// it bridges the game's player socket (COWORLD_PLAYER_WS_URL) to the server's relay
// (GAUNTLET_RELAY_URL), where the person's browser is. Frames pass unchanged both ways; what
// one side sends before the other is open waits. It ends when the game closes, or when the
// server ends the seat. When the server's side drops instead (its replica died or restarted), it
// connects again to the same address, which a balancer sends to a live replica, with backoff for
// a bounded time; the game's frames wait meanwhile (bounded) and the game goes on. The relay
// address carries a token, so it is never printed.
const gameUrl = process.env.COWORLD_PLAYER_WS_URL;
const relayUrl = process.env.GAUNTLET_RELAY_URL;
if (!gameUrl || !relayUrl) {
  console.error("human relay: COWORLD_PLAYER_WS_URL and GAUNTLET_RELAY_URL are both needed");
  process.exit(2);
}
const relayAddress: string = relayUrl;

/** Longer than the server waits for the game side (RELAY_TIMING), so the server fails the seat. */
const RECONNECT_FOR_MS = 90_000;
const BACKOFF_MS = [100, 250, 500, 1_000, 2_000, 4_000];
const MAX_QUEUED = 1_000;
/**
 * The server's closes that end the seat: the game ended or the session did (1000, 4410), the
 * token opens nothing (4401), another connection took the seat (4000). Anything else (1001 going
 * away, 1006 dropped, 1011/1012/1013 the server failing or restarting) is a connection to restore.
 */
const FINAL_CLOSES = new Set([1000, 4000, 4401, 4410]);

const game = new WebSocket(gameUrl);
let relay = new WebSocket(relayAddress);
/** The game's frames while the server's side is not open. */
const waiting: string[] = [];
let dropped = 0;
let lostAt: number | null = null;
let attempt = 0;
let ending = false;

function end(code: number): void {
  if (ending) return;
  ending = true;
  setTimeout(() => process.exit(code), 100).unref();
}

game.addEventListener("message", (event: MessageEvent) => {
  if (typeof event.data !== "string") return;
  if (relay.readyState === WebSocket.OPEN) relay.send(event.data);
  else if (waiting.length < MAX_QUEUED) waiting.push(event.data);
  else dropped++;
});
game.addEventListener("open", () => console.log("human relay: connected to the game"));
game.addEventListener("error", () => console.error("human relay: the game side failed"));
game.addEventListener("close", (event: CloseEvent) => {
  console.log(`human relay: the game side closed (${event.code})`);
  if (relay.readyState === WebSocket.OPEN || relay.readyState === WebSocket.CONNECTING)
    relay.close(1000, "the game side closed");
  end(0);
});

function connectRelay(socket: WebSocket): void {
  socket.addEventListener("open", () => {
    console.log(
      lostAt === null
        ? "human relay: connected to the server"
        : `human relay: reconnected to the server after ${Date.now() - lostAt} ms`,
    );
    if (dropped > 0) console.error(`human relay: ${dropped} frames of the game were dropped`);
    lostAt = null;
    attempt = 0;
    dropped = 0;
    for (const frame of waiting.splice(0)) socket.send(frame);
  });
  socket.addEventListener("message", (event: MessageEvent) => {
    if (typeof event.data !== "string") return;
    if (game.readyState === WebSocket.OPEN) game.send(event.data);
  });
  socket.addEventListener("error", () => console.error("human relay: the server side failed"));
  socket.addEventListener("close", (event: CloseEvent) => {
    if (ending || game.readyState === WebSocket.CLOSED || game.readyState === WebSocket.CLOSING)
      return;
    console.log(`human relay: the server side closed (${event.code})`);
    const now = Date.now();
    lostAt ??= now;
    if (FINAL_CLOSES.has(event.code) || now - lostAt > RECONNECT_FOR_MS) {
      const gaveUp = !FINAL_CLOSES.has(event.code);
      if (gaveUp) console.error("human relay: the server could not be reached again; giving up");
      game.close(gaveUp ? 1011 : 1000, "the server side closed");
      end(gaveUp ? 1 : 0);
      return;
    }
    const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 4_000;
    attempt++;
    setTimeout(() => {
      if (ending) return;
      relay = new WebSocket(relayAddress);
      connectRelay(relay);
    }, delay);
  });
}

connectRelay(relay);

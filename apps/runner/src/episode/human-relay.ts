// The player process of a seat a person plays (a hosted play session): instead of a policy,
// it bridges the game's player socket (COWORLD_PLAYER_WS_URL) to the server's relay
// (GAUNTLET_RELAY_URL), where the person's browser is. Frames pass unchanged both ways; what
// one side sends before the other is open waits. It ends when either side closes. The relay
// address carries a token, so it is never printed.
const gameUrl = process.env.COWORLD_PLAYER_WS_URL;
const relayUrl = process.env.GAUNTLET_RELAY_URL;
if (!gameUrl || !relayUrl) {
  console.error("human relay: COWORLD_PLAYER_WS_URL and GAUNTLET_RELAY_URL are both needed");
  process.exit(2);
}

const game = new WebSocket(gameUrl);
const relay = new WebSocket(relayUrl);

function bridge(from: WebSocket, to: WebSocket, name: string): void {
  const waiting: string[] = [];
  from.addEventListener("message", (event: MessageEvent) => {
    if (typeof event.data !== "string") return;
    if (to.readyState === WebSocket.OPEN) to.send(event.data);
    else waiting.push(event.data);
  });
  to.addEventListener("open", () => {
    for (const frame of waiting.splice(0)) to.send(frame);
  });
  from.addEventListener("close", (event: CloseEvent) => {
    console.log(`human relay: the ${name} side closed (${event.code})`);
    if (to.readyState === WebSocket.OPEN || to.readyState === WebSocket.CONNECTING)
      to.close(1000, `the ${name} side closed`);
    setTimeout(() => process.exit(0), 100).unref();
  });
  from.addEventListener("error", () => console.error(`human relay: the ${name} side failed`));
}

bridge(game, relay, "game");
bridge(relay, game, "server");
game.addEventListener("open", () => console.log("human relay: connected to the game"));
relay.addEventListener("open", () => console.log("human relay: connected to the server"));

// The docker runtime's relay: the runner's own small program, run in a container of the episode's
// network from the offline base image. The episode's network is internal and the host has no
// address on it, so nothing in the episode reaches the host; the runner reaches the episode only
// through this relay's Unix sockets, in a directory bind-mounted from the runner:
// - `game.sock` (the relay listens): each connection is piped to the game's port, for /healthz
//   and the human relay;
// - port RELAY_PORT on the episode network (the relay listens): each connection is piped to
//   `artifacts.sock` (the runner listens), where each seat's artifact address has its own key.
// Only Node's built-ins: it runs from the base image, with no dependencies.
import { connect, createServer, type Socket } from "node:net";

const socketDir = process.env.RELAY_SOCKET_DIR ?? "/sockets";
const gameHost = process.env.RELAY_GAME_HOST ?? "game";
const gamePort = Number(process.env.RELAY_GAME_PORT ?? "8080");
const relayPort = Number(process.env.RELAY_PORT ?? "9000");
/** Many connections at once are a player's attack on the relay, not artifacts. */
const MAX_CONNECTIONS = 64;

function pipe(from: Socket, to: Socket): void {
  from.pipe(to);
  to.pipe(from);
  const end = () => {
    from.destroy();
    to.destroy();
  };
  from.on("error", end).on("close", end);
  to.on("error", end).on("close", end);
}

const toGame = createServer((socket) => pipe(socket, connect(gamePort, gameHost)));
toGame.maxConnections = MAX_CONNECTIONS;
toGame.listen(`${socketDir}/game.sock`, () => console.log("relay: game.sock ready"));

const toRunner = createServer((socket) => pipe(socket, connect(`${socketDir}/artifacts.sock`)));
toRunner.maxConnections = MAX_CONNECTIONS;
toRunner.listen(relayPort, "0.0.0.0", () => console.log(`relay: artifacts on :${relayPort}`));

process.on("SIGTERM", () => process.exit(0));

// The player side of the protocol, shared by the baselines: connect to COWORLD_PLAYER_WS_URL,
// answer every turn with the strategy's move, exit when the game ends the episode.
import type { GameMessage, MoveMessage } from "../game/protocol.ts";
import type { Strategy } from "./strategies.ts";

export interface PlayOptions {
  /** Called before each answer; lets a test fixture misbehave on purpose. */
  beforeMove?: (turn: number) => void;
}

export function play(name: string, strategy: Strategy, options: PlayOptions = {}): void {
  const url = process.env.COWORLD_PLAYER_WS_URL;
  if (url === undefined || url === "") {
    process.stderr.write(`${name}: COWORLD_PLAYER_WS_URL is not set\n`);
    process.exit(2);
  }
  const socket = new WebSocket(url);
  let finished = false;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as GameMessage;
    if (message.type === "welcome") {
      process.stdout.write(`${name}: seated in slot ${message.slot} of ${message.players}\n`);
    } else if (message.type === "turn") {
      options.beforeMove?.(message.turn);
      const answer: MoveMessage = {
        type: "move",
        turn: message.turn,
        move: strategy(message, Math.random),
      };
      socket.send(JSON.stringify(answer));
    } else {
      finished = true;
      process.stdout.write(
        `${name}: episode ${message.reason}; scores ${message.scores.join(" ")}\n`,
      );
    }
  });
  socket.addEventListener("error", () => {
    process.stderr.write(`${name}: cannot reach the game\n`);
  });
  socket.addEventListener("close", () => {
    process.exitCode = finished ? 0 : 1;
  });
}

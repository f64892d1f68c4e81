// The player WebSocket protocol of GridRush (README, "Player protocol"). JSON text frames only.

export type Move = "N" | "S" | "E" | "W" | "stay";
export const MOVES: readonly Move[] = ["N", "S", "E", "W", "stay"];

/** A cell as [x, y]; x grows east, y grows south. */
export type Cell = [number, number];

/** Game → player, once, when the slot's socket opens. */
export interface WelcomeMessage {
  type: "welcome";
  slot: number;
  players: number;
  width: number;
  height: number;
  turns: number;
}

/** Game → every player, at the start of each turn. Answer with a MoveMessage for that turn. */
export interface TurnMessage {
  type: "turn";
  turn: number;
  turns: number;
  you: number;
  width: number;
  height: number;
  positions: Cell[];
  coins: Cell[];
  scores: number[];
}

/** Game → every player, when the episode ends; the game then closes the socket. */
export interface EndMessage {
  type: "end";
  reason: "finished" | "aborted";
  scores: number[];
  winner_slot: number | null;
}

export type GameMessage = WelcomeMessage | TurnMessage | EndMessage;

/** Player → game. A move for another turn than the current one is ignored. */
export interface MoveMessage {
  type: "move";
  turn: number;
  move: Move;
}

export function isMove(value: unknown): value is Move {
  return typeof value === "string" && (MOVES as readonly string[]).includes(value);
}

// The rules of GridRush, free of I/O so that tests and the server share them. Players move at
// once; a coin reached by exactly one player scores for that player, a coin reached by several
// is lost; either way a fresh coin appears on a free cell, so the number of coins stays fixed.
import type { Cell, Move, TurnMessage } from "./protocol.ts";

export interface Settings {
  width: number;
  height: number;
  turns: number;
  coins: number;
  seed: number;
  players: number;
}

export interface GameState {
  settings: Settings;
  turn: number;
  positions: Cell[];
  coins: Cell[];
  scores: number[];
  random: () => number;
}

export interface TurnRecord {
  turn: number;
  moves: Move[];
  positions: Cell[];
  coins: Cell[];
  scores: number[];
  /** The slots that scored this turn. */
  scored: number[];
}

/** mulberry32: a small, fast, seedable generator (reproducible episodes from `seed`). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Players start in the corners, clockwise from the top left. */
function startCell(slot: number, width: number, height: number): Cell {
  const corners: Cell[] = [
    [0, 0],
    [width - 1, height - 1],
    [width - 1, 0],
    [0, height - 1],
  ];
  const corner = corners[slot % corners.length];
  if (corner === undefined) throw new Error(`no start cell for slot ${slot}`);
  return corner;
}

export function newGame(settings: Settings): GameState {
  const free = settings.width * settings.height - settings.players;
  if (settings.coins > free)
    throw new Error(
      `${settings.coins} coins do not fit on a ${settings.width}x${settings.height} grid`,
    );
  const state: GameState = {
    settings,
    turn: 0,
    positions: Array.from({ length: settings.players }, (_, slot) =>
      startCell(slot, settings.width, settings.height),
    ),
    coins: [],
    scores: Array.from({ length: settings.players }, () => 0),
    random: seededRandom(settings.seed),
  };
  while (state.coins.length < settings.coins) state.coins.push(freeCell(state));
  return state;
}

function sameCell(a: Cell, b: Cell): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function freeCell(state: GameState): Cell {
  const { width, height } = state.settings;
  for (;;) {
    const cell: Cell = [Math.floor(state.random() * width), Math.floor(state.random() * height)];
    const taken =
      state.positions.some((p) => sameCell(p, cell)) || state.coins.some((c) => sameCell(c, cell));
    if (!taken) return cell;
  }
}

export function moveCell(cell: Cell, move: Move, width: number, height: number): Cell {
  const [x, y] = cell;
  const next: Cell =
    move === "N"
      ? [x, y - 1]
      : move === "S"
        ? [x, y + 1]
        : move === "E"
          ? [x + 1, y]
          : move === "W"
            ? [x - 1, y]
            : [x, y];
  // A move off the grid is a stay.
  return next[0] < 0 || next[1] < 0 || next[0] >= width || next[1] >= height ? cell : next;
}

/** Plays one turn in place and returns its record. */
export function step(state: GameState, moves: Move[]): TurnRecord {
  const { width, height } = state.settings;
  state.positions = state.positions.map((cell, slot) =>
    moveCell(cell, moves[slot] ?? "stay", width, height),
  );
  const scored: number[] = [];
  const remaining: Cell[] = [];
  let taken = 0;
  for (const coin of state.coins) {
    const here = state.positions.flatMap((cell, slot) => (sameCell(cell, coin) ? [slot] : []));
    if (here.length === 0) {
      remaining.push(coin);
      continue;
    }
    taken += 1;
    const [only] = here;
    if (here.length === 1 && only !== undefined) {
      state.scores[only] = (state.scores[only] ?? 0) + 1;
      scored.push(only);
    }
  }
  state.coins = remaining;
  for (let i = 0; i < taken; i += 1) state.coins.push(freeCell(state));
  state.turn += 1;
  return {
    turn: state.turn - 1,
    moves: [...moves],
    positions: state.positions.map((c) => [c[0], c[1]]),
    coins: state.coins.map((c) => [c[0], c[1]]),
    scores: [...state.scores],
    scored,
  };
}

export function isOver(state: GameState): boolean {
  return state.turn >= state.settings.turns;
}

/** The slot with the strictly highest score, or null on a tie for first. */
export function winnerSlot(scores: number[]): number | null {
  const best = Math.max(...scores);
  const leaders = scores.flatMap((score, slot) => (score === best ? [slot] : []));
  return leaders.length === 1 ? (leaders[0] ?? null) : null;
}

export function viewFor(state: GameState, slot: number): TurnMessage {
  const { width, height, turns } = state.settings;
  return {
    type: "turn",
    turn: state.turn,
    turns,
    you: slot,
    width,
    height,
    positions: state.positions.map((c) => [c[0], c[1]]),
    coins: state.coins.map((c) => [c[0], c[1]]),
    scores: [...state.scores],
  };
}

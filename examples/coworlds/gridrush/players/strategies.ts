// The baseline strategies, as pure functions of a turn's view. `random` is injected so that
// tests can seed it. Strength order: greedy > wanderer > random.
import { MOVES, type Cell, type Move, type TurnMessage } from "../game/protocol.ts";

export type Strategy = (view: TurnMessage, random: () => number) => Move;

function distance(a: Cell, b: Cell): number {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
}

/** One step from `from` toward `to`, along the axis with the longer way to go. */
function toward(from: Cell, to: Cell): Move {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  if (dx === 0 && dy === 0) return "stay";
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "E" : "W";
  return dy > 0 ? "S" : "N";
}

function nearest(from: Cell, coins: Cell[]): Cell | undefined {
  let best: Cell | undefined;
  for (const coin of coins)
    if (best === undefined || distance(from, coin) < distance(from, best)) best = coin;
  return best;
}

export const randomMove: Strategy = (_view, random) =>
  MOVES[Math.floor(random() * MOVES.length)] ?? "stay";

/** Heads for the nearest coin that no opponent can reach as soon; failing that, the nearest coin. */
export const greedy: Strategy = (view) => {
  const me = view.positions[view.you];
  if (me === undefined) return "stay";
  const others = view.positions.filter((_, slot) => slot !== view.you);
  const uncontested = view.coins.filter((coin) =>
    others.every((other) => distance(other, coin) > distance(me, coin)),
  );
  const target = nearest(me, uncontested) ?? nearest(me, view.coins);
  return target === undefined ? "stay" : toward(me, target);
};

/** Walks to the nearest coin, but half of its moves are random. */
export const wanderer: Strategy = (view, random) => {
  if (random() < 0.5) return randomMove(view, random);
  const me = view.positions[view.you];
  const target = me === undefined ? undefined : nearest(me, view.coins);
  return me === undefined || target === undefined ? "stay" : toward(me, target);
};

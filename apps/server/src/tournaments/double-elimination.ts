// Double elimination as pure functions: the draw is a graph of matches whose sides are fed by a
// seed, by nobody (a bye), or by the winner or loser of an earlier match; resolving it against
// the decided matches says which matches are ready, which are byes, and who won.
//
// The shape: a winners bracket seeded like single elimination; a losers bracket that takes each
// winners-bracket loser (rounds alternate between a round where the losers bracket's survivors
// meet the newly dropped losers, in reverse order so early opponents do not meet again at once,
// and a round where the survivors meet each other); and one grand final between the two
// brackets' winners. The grand final decides the tournament: there is no bracket reset, so the
// losers-bracket champion wins it with one match win, like any other match.
import { bracketSize, seedOrder } from "./bracket.ts";

export type Bracket = "winners" | "losers" | "final";

export type Feed =
  | { kind: "seed"; seed: number }
  | { kind: "nobody" }
  | { kind: "from"; match: string; take: "winner" | "loser" };

export interface DrawnBracketMatch {
  key: string;
  bracket: Bracket;
  round: number;
  position: number;
  a: Feed;
  b: Feed;
}

/** A match's key in its tournament: `w2m0` is the winners bracket's round 2, position 0. */
export const matchKey = (bracket: Bracket, round: number, position: number): string =>
  `${bracket[0]}${round}m${position}`;

const winnerOf = (match: string): Feed => ({ kind: "from", match, take: "winner" });
const loserOf = (match: string): Feed => ({ kind: "from", match, take: "loser" });

export function drawDoubleElimination(entrants: number): DrawnBracketMatch[] {
  const size = bracketSize(entrants);
  const rounds = Math.log2(size);
  const matches: DrawnBracketMatch[] = [];
  const add = (bracket: Bracket, round: number, position: number, a: Feed, b: Feed) =>
    matches.push({ key: matchKey(bracket, round, position), bracket, round, position, a, b });
  const seeded = seedOrder(size).map((seed): Feed =>
    seed <= entrants ? { kind: "seed", seed } : { kind: "nobody" },
  );

  for (let p = 0; p < size / 2; p++)
    add(
      "winners",
      1,
      p,
      seeded[2 * p] ?? { kind: "nobody" },
      seeded[2 * p + 1] ?? { kind: "nobody" },
    );
  for (let r = 2; r <= rounds; r++) {
    for (let p = 0; p < size / 2 ** r; p++)
      add(
        "winners",
        r,
        p,
        winnerOf(matchKey("winners", r - 1, 2 * p)),
        winnerOf(matchKey("winners", r - 1, 2 * p + 1)),
      );
  }
  if (rounds >= 2) {
    for (let p = 0; p < size / 4; p++)
      add(
        "losers",
        1,
        p,
        loserOf(matchKey("winners", 1, 2 * p)),
        loserOf(matchKey("winners", 1, 2 * p + 1)),
      );
    for (let j = 1; j <= rounds - 1; j++) {
      const count = size / 2 ** (j + 1);
      // The survivors of the losers bracket meet the losers of winners round j + 1.
      for (let p = 0; p < count; p++)
        add(
          "losers",
          2 * j,
          p,
          winnerOf(matchKey("losers", 2 * j - 1, p)),
          loserOf(matchKey("winners", j + 1, count - 1 - p)),
        );
      if (j === rounds - 1) break;
      for (let p = 0; p < count / 2; p++)
        add(
          "losers",
          2 * j + 1,
          p,
          winnerOf(matchKey("losers", 2 * j, 2 * p)),
          winnerOf(matchKey("losers", 2 * j, 2 * p + 1)),
        );
    }
  }
  const winnersFinal = matchKey("winners", rounds, 0);
  // With two entrants there is no losers bracket: the first match's loser gets its second life in the final.
  add(
    "final",
    1,
    0,
    winnerOf(winnersFinal),
    rounds >= 2 ? winnerOf(matchKey("losers", 2 * (rounds - 1), 0)) : loserOf(winnersFinal),
  );
  return matches;
}

/** A decided match: who goes on and who drops (null: nobody, after a bye or an empty match). */
export interface DecidedMatch {
  winner: number | null;
  loser: number | null;
}

export interface Resolution {
  /** Matches that now have both entrants and can be played. */
  ready: { key: string; seedA: number; seedB: number }[];
  /** Matches decided without play: one entrant against nobody goes on (a bye), nobody against nobody is empty. */
  byes: { key: string; seedA: number | null; seedB: number | null; winner: number | null }[];
  /** Matches still waiting for an entrant, with the one already known (null: not known yet). */
  waiting: { key: string; seedA: number | null; seedB: number | null }[];
  /** The grand final's winner once it is decided. */
  champion: number | null;
}

/** What the decided matches imply, applied until nothing more follows (a bye can feed a bye). */
export function resolveDoubleElimination(
  draw: readonly DrawnBracketMatch[],
  decided: ReadonlyMap<string, DecidedMatch>,
): Resolution {
  const known = new Map(decided);
  const ready = new Map<string, { key: string; seedA: number; seedB: number }>();
  const byes: Resolution["byes"] = [];
  const side = (feed: Feed): number | null | undefined => {
    if (feed.kind === "seed") return feed.seed;
    if (feed.kind === "nobody") return null;
    const from = known.get(feed.match);
    if (!from) return undefined;
    return feed.take === "winner" ? from.winner : from.loser;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const m of draw) {
      if (known.has(m.key) || ready.has(m.key)) continue;
      const a = side(m.a);
      const b = side(m.b);
      if (a === undefined || b === undefined) continue;
      if (a !== null && b !== null) {
        ready.set(m.key, { key: m.key, seedA: a, seedB: b });
        continue;
      }
      const winner = a ?? b;
      known.set(m.key, { winner, loser: null });
      byes.push({ key: m.key, seedA: a, seedB: b, winner });
      changed = true;
    }
  }
  const waiting: Resolution["waiting"] = [];
  for (const m of draw) {
    if (known.has(m.key) || ready.has(m.key)) continue;
    const a = side(m.a);
    const b = side(m.b);
    if (typeof a === "number" || typeof b === "number")
      waiting.push({ key: m.key, seedA: a ?? null, seedB: b ?? null });
  }
  const final = draw.find((m) => m.bracket === "final");
  return {
    ready: [...ready.values()],
    byes,
    waiting,
    champion: final ? (known.get(final.key)?.winner ?? null) : null,
  };
}

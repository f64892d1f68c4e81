// A division's `commissioner_description` (the spec's "how this division works"), filled from the
// commissioner that runs it: the built-in ladder describes its own settings; a coworld's own
// commissioner is described by its manifest entry (COMMISSIONER.md: a commissioner's description
// comes from the manifest's `description`). What the league's commissioner wrote into the
// division's stored description wins, field by field.
import type { CommissionerDescription, LadderSettings } from "@gauntlet/core";

import type { ResolvedCommissioner } from "./commissioner/resolve.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function schedule(ladder: LadderSettings): string {
  return ladder.round_interval_minutes === null
    ? "A new round starts as soon as the previous one settles."
    : `A new round starts every ${plural(ladder.round_interval_minutes, "minute")}, once the previous one has settled.`;
}

function structure(ladder: LadderSettings): string {
  const seats = `${plural(ladder.players_per_episode, "player")} an episode`;
  switch (ladder.seating) {
    case "round_robin":
      return `Round robin: every group of the division's champions plays ${plural(ladder.episodes_per_pairing, "episode")} (${seats}).`;
    case "swiss_neighbor":
      return `Swiss: each champion plays its neighbours in the standings, ${plural(ladder.episodes_per_pairing, "episode")} a pairing (${seats}).`;
    case "adaptive":
      return `Adaptive: episodes are played where the standings are least certain, between neighbours whose order is not yet settled (${seats}).`;
  }
}

function rating(ladder: LadderSettings): string {
  switch (ladder.ranking) {
    case "elo":
      return `Elo (start ${ladder.elo.initial}, K ${ladder.elo.k}): each episode is a win, draw or loss between each pair of its players.`;
    case "score":
      return `The game's scores, aggregated by ${ladder.score.aggregation}${ladder.score.aggregation === "ewma" ? ` with a half-life of ${plural(ladder.score.half_life_hours, "hour")}` : ""}.`;
    case "openskill":
      return `OpenSkill (Plackett–Luce, mu ${ladder.openskill.mu}): each episode ranks its players by score.`;
  }
}

function promotion(ladder: LadderSettings): string {
  const { promote, relegate, every_rounds } = ladder.promotion;
  if (promote === 0 && relegate === 0) return "No promotion or relegation.";
  const moves = [
    promote === 0
      ? null
      : promote === 1
        ? "the best player goes up a division"
        : `the best ${promote} players go up a division`,
    relegate === 0
      ? null
      : relegate === 1
        ? "the last player goes down"
        : `the last ${relegate} players go down`,
  ].filter((m) => m !== null);
  const when = every_rounds === 1 ? "After every round" : `Every ${every_rounds} rounds`;
  return `${when} ${moves.join(" and ")}.`;
}

/** What the commissioner running the division says of it, under what was stored for it. */
export function describeDivision(
  stored: CommissionerDescription,
  ladder: LadderSettings,
  commissioner: ResolvedCommissioner,
): CommissionerDescription {
  const own: CommissionerDescription =
    commissioner.kind === "coworld"
      ? {
          round_schedule:
            "The coworld's commissioner is asked for new rounds while a division has none running.",
          round_structure:
            commissioner.description ??
            `The coworld's commissioner ${commissioner.runnableId} decides each round's episodes and who plays them.`,
          leaderboard_rules: `Each round ranks its entrants as the commissioner reports; ratings follow those ranks (${ladder.ranking}).`,
          scoring_mechanics:
            "Episodes are scored by the game; the commissioner turns them into the round's ranking.",
        }
      : {
          round_schedule: schedule(ladder),
          round_structure: structure(ladder),
          leaderboard_rules: `Standings by rating. ${promotion(ladder)}`,
          scoring_mechanics: rating(ladder),
        };
  const written = Object.fromEntries(
    // An empty field written is no description: the commissioner's own stands.
    Object.entries(stored).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : Boolean(v))),
  );
  return { ...own, changelog: [], ...written };
}

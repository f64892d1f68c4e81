// How a tournament reads for people: its fields, then its entrants (before the draw) or its bracket.
import type { Tournament } from "@gauntlet/core";

import type { IOStreams } from "../../io.ts";
import { writeFields, writeTable } from "../../output.ts";

export function writeTournament(io: IOStreams, t: Tournament): void {
  const name = (seed: number | null) =>
    seed === null
      ? "—"
      : `#${seed} ${t.entrants.find((e) => e.seed === seed)?.display_name ?? "?"}`;
  const score = (value: number | null) => (value === null ? "" : Number(value.toFixed(3)));
  writeFields(io, [
    ["id", t.id],
    ["name", t.name],
    ["league", t.league_id],
    ["format", t.format],
    ["status", t.status],
    ["episodes per match", t.episodes_per_match],
    ["seeding", t.seeding],
    ["waves", t.waves.length],
    ["winner", t.winner ? name(t.winner.seed) : "—"],
    ...(t.error ? ([["error", t.error]] as const) : []),
  ]);
  if (t.matches.length === 0) {
    writeTable(
      io,
      ["seed", "entrant", "policy version"],
      t.entrants.map((e) => [e.seed, e.display_name, e.policy_version_id]),
      "no entrants",
    );
    return;
  }
  // The bracket column only where there is more than one bracket (double elimination).
  const brackets = t.format === "double_elimination";
  const stage = (m: Tournament["matches"][number]) => (brackets ? [m.bracket, m.round] : [m.round]);
  writeTable(
    io,
    [
      ...(brackets ? ["bracket"] : []),
      "round",
      "a",
      "b",
      "score a",
      "score b",
      "status",
      "winner",
      "decided by",
    ],
    t.matches.map((m) => [
      ...stage(m),
      name(m.seed_a),
      name(m.seed_b),
      score(m.score_a),
      score(m.score_b),
      m.status,
      m.winner_seed === null ? "" : name(m.winner_seed),
      m.decided_by ?? "",
    ]),
  );
}

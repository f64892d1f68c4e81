// One league as a key/value block, shared by show, create and update.
import type { League } from "@gauntlet/core";

import type { IOStreams } from "../../io.ts";
import { shortTime, writeFields } from "../../output.ts";

/** A coworld commissioner the league's config selects, or the server's built-in one. */
export function leagueCommissioner(league: League): string {
  const runnable = league.commissioner_config.commissioner_runnable_id;
  return typeof runnable === "string" && runnable.length > 0
    ? `${runnable} (the coworld's commissioner)`
    : `${league.commissioner_key} (built-in)`;
}

export function writeLeague(io: IOStreams, league: League): void {
  writeFields(io, [
    ["id", league.id],
    ["name", league.name],
    ["game", `${league.game.name} (${league.game.id})`],
    ["public", league.public],
    ["commissioner", leagueCommissioner(league)],
    [
      "rounds",
      league.rounds_paused_at ? `paused since ${shortTime(league.rounds_paused_at)}` : "running",
    ],
    ["created", shortTime(league.created_at)],
    ["description", league.description],
  ]);
}

// One league as a key/value block, shared by show, create and update.
import type { League } from "@gauntlet/core";

import type { IOStreams } from "../../io.ts";
import { shortTime, writeFields } from "../../output.ts";

export function writeLeague(io: IOStreams, league: League): void {
  writeFields(io, [
    ["id", league.id],
    ["name", league.name],
    ["game", `${league.game.name} (${league.game.id})`],
    ["public", league.public],
    [
      "rounds",
      league.rounds_paused_at ? `paused since ${shortTime(league.rounds_paused_at)}` : "running",
    ],
    ["created", shortTime(league.created_at)],
    ["description", league.description],
  ]);
}

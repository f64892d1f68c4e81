// gauntlet hosted join SESSION: the player address on stdout, so a program can read it.
import type { Command } from "commander";

import type { Deps, Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { idVerbCommand } from "../id-verb.ts";
import { sessionArg } from "./shared.ts";

export interface JoinOptions {
  sessionId: string;
  json: boolean;
}

export async function runJoin(options: JoinOptions, { io, client }: Deps): Promise<void> {
  const joined = await client.hostedGames.join({ session_id: options.sessionId });
  if (options.json) return writeJson(io, joined);
  io.out.write(`${joined.player_url}\n`);
  const browser = joined.client_url ? `; in a browser: ${joined.client_url}` : "";
  writeNote(
    io,
    `Slot ${joined.slot} (${joined.player.label}): connect a player program to the address above${browser}`,
  );
}

export function joinCommand(
  parent: Command,
  factory: Factory,
  run: (options: JoinOptions, deps: Deps) => Promise<void> = runJoin,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: "join",
    description: "Take a slot (yours again if you hold one): prints its player address (WebSocket)",
    argument: ["<session>", "play session id (ps_…)"],
    options: async (id) => ({ sessionId: await sessionArg(id) }),
  });
}

// gauntlet hosted get|end SESSION: show a session, or end it and show it.
import type { Command } from "commander";

import type { Deps, Factory } from "../../factory.ts";
import { idVerbCommand } from "../id-verb.ts";
import { sessionArg, writeSession } from "./shared.ts";

export interface SessionOptions {
  verb: "get" | "end";
  sessionId: string;
  json: boolean;
}

export async function runSession(options: SessionOptions, { io, client }: Deps): Promise<void> {
  const session_id = options.sessionId;
  const session =
    options.verb === "get"
      ? await client.hostedGames.get({ session_id })
      : await client.hostedGames.terminate({ session_id });
  writeSession(io, session, options.json);
}

export function sessionCommand(
  parent: Command,
  factory: Factory,
  verb: SessionOptions["verb"],
  run: (options: SessionOptions, deps: Deps) => Promise<void> = runSession,
): Command {
  return idVerbCommand(parent, factory, run, {
    name: verb,
    description:
      verb === "get"
        ? "Show a session: its slots, who joined, its episode"
        : "End a session now (its episode is cancelled)",
    argument: ["<session>", "play session id (ps_…)"],
    options: async (id) => ({ verb, sessionId: await sessionArg(id) }),
  });
}

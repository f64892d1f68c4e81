// gauntlet hosted get|end SESSION: show a session, or end it and show it.
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
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
  return parent
    .command(verb)
    .description(
      verb === "get"
        ? "Show a session: its slots, who joined, its episode"
        : "End a session now (its episode is cancelled)",
    )
    .argument("<session>", "play session id (ps_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = { verb, sessionId: await sessionArg(id), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}

// A verb whose one argument is an id (`reporter get REPORTER`, `lobby start LOBBY`): what such
// verbs share is how their argument and --json become options and reach the verb's run.
import type { Command } from "commander";

import { wantsJson } from "../context.ts";
import { depsOf, type Deps, type Factory } from "../factory.ts";

export interface IdVerb<O> {
  name: string;
  description: string;
  /** The argument as commander takes it ("<reporter>") and its help. */
  argument: readonly [string, string];
  /** The verb's options but --json, from the id as typed; a malformed id throws a usage error. */
  options: (id: string) => Promise<O>;
}

export function idVerbCommand<O>(
  parent: Command,
  factory: Factory,
  run: (options: O & { json: boolean }, deps: Deps) => Promise<void>,
  verb: IdVerb<O>,
): Command {
  return parent
    .command(verb.name)
    .description(verb.description)
    .argument(verb.argument[0], verb.argument[1])
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      // The id is checked before the client is made: a bad one sends no request.
      const options = { ...(await verb.options(id)), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}

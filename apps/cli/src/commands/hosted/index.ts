// gauntlet hosted create|list|get|join|end|replay: games hosted live, whose slots people (in the
// browser) and programs (over the coworld's player protocol) join, and replays opened in the
// coworld's replay viewer. The hosted service's `coworld hosted-game` commands, here. One file per
// verb, each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { createCommand } from "./create.ts";
import { joinCommand } from "./join.ts";
import { listCommand } from "./list.ts";
import { replayCommand } from "./replay.ts";
import { sessionCommand } from "./session.ts";

export const hosted: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("hosted")
      .description("Hosted games people and programs join live, and hosted replays");
    createCommand(group, factory);
    listCommand(group, factory);
    sessionCommand(group, factory, "get");
    joinCommand(group, factory);
    sessionCommand(group, factory, "end");
    replayCommand(group, factory);
  },
};

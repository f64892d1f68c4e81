// gauntlet eval create|list|get|episodes|cancel: hosted evaluations (experience requests), a
// roster played over N episodes by the same runners as league rounds. One file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { createCommand } from "./create.ts";
import { listCommand } from "./list.ts";
import { oneCommand } from "./one.ts";

export const evaluation: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("eval")
      .description("Hosted evaluations: play a roster of policies over N episodes on the runners")
      .addHelpText(
        "after",
        `
Examples:
  gauntlet eval create --league "Spring League" --policy my-bot --top 1 --wait
  gauntlet eval create --coworld cow_… --policy my-bot:v3 --policy rival
  gauntlet eval list
  gauntlet eval get xreq_…
  gauntlet eval episodes xreq_… --json
  gauntlet eval cancel xreq_…`,
      );
    createCommand(group, factory);
    listCommand(group, factory);
    oneCommand(group, factory, "get");
    oneCommand(group, factory, "episodes");
    oneCommand(group, factory, "cancel");
  },
};

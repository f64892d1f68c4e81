// gauntlet tournament create|list|get|lock|start|advance|cancel: one file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { createCommand } from "./create.ts";
import { getCommand } from "./get.ts";
import { listCommand } from "./list.ts";
import { transitionCommand } from "./transition.ts";

export const tournament: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("tournament")
      .description("A league's tournaments: entrants, bracket, waves on the runners, the winner");
    createCommand(group, factory);
    listCommand(group, factory);
    getCommand(group, factory);
    transitionCommand(
      group,
      factory,
      "lock",
      "Lock the entrants and draw the bracket (draft → locked)",
    );
    transitionCommand(
      group,
      factory,
      "start",
      "Start playing: the first wave goes to the runners (locked → running)",
    );
    transitionCommand(
      group,
      factory,
      "advance",
      "Decide an ended wave and start the next (running; otherwise automatic)",
    );
    transitionCommand(group, factory, "cancel", "Cancel a tournament that has not ended");
  },
};

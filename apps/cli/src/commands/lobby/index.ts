// gauntlet lobby create|get|update|seat|claim|empty|leave|start|launch|end|cancel: one file per
// verb, each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { claimCommand } from "./claim.ts";
import { createCommand } from "./create.ts";
import { emptyCommand } from "./empty.ts";
import { getCommand } from "./get.ts";
import { seatCommand } from "./seat.ts";
import { transitionCommand } from "./transition.ts";
import { updateCommand } from "./update.ts";

export const lobby: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("lobby")
      .description("Lobbies: seat policies together for one episode in a league");
    createCommand(group, factory);
    getCommand(group, factory);
    updateCommand(group, factory);
    seatCommand(group, factory);
    claimCommand(group, factory);
    emptyCommand(group, factory);
    for (const [verb, description] of [
      ["leave", "Give up the seats you claimed"],
      ["start", "Play the lobby's episode on the runners, each human seat by its claimed policy"],
      [
        "launch",
        "Play the lobby live: people join their seats with `gauntlet hosted join`, champions play the rest",
      ],
      ["end", "End a running lobby now (its episode or live game is cancelled)"],
      ["cancel", "Cancel an open lobby"],
    ] as const)
      transitionCommand(group, factory, verb, description);
  },
};

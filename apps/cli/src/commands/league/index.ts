// gauntlet league list|show|create|update|lock|pause|trigger-round|use: one file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { createCommand } from "./create.ts";
import { listCommand } from "./list.ts";
import { lockCommand } from "./lock.ts";
import { pauseCommand } from "./pause.ts";
import { showCommand } from "./show.ts";
import { triggerRoundCommand } from "./trigger-round.ts";
import { updateCommand } from "./update.ts";
import { useCommand } from "./use.ts";

export const league: CommandGroup = {
  register(program, _state, factory) {
    const group = program.command("league").description("Leagues: list, show, create and run them");
    listCommand(group, factory);
    showCommand(group, factory);
    createCommand(group, factory);
    updateCommand(group, factory);
    lockCommand(group, factory);
    pauseCommand(group, factory);
    triggerRoundCommand(group, factory);
    useCommand(group, factory);
  },
};

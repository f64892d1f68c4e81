// gauntlet reporter register|rotate-key|list|get|runs open|output post|output list: one file per
// verb, each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { getCommand } from "./get.ts";
import { listCommand } from "./list.ts";
import { outputListCommand } from "./output-list.ts";
import { outputPostCommand } from "./output-post.ts";
import { registerCommand } from "./register.ts";
import { rotateKeyCommand } from "./rotate-key.ts";
import { runsOpenCommand } from "./runs-open.ts";

export const reporter: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("reporter")
      .description("Reporters: programs that write up episodes, rounds and divisions");
    registerCommand(group, factory);
    rotateKeyCommand(group, factory);
    listCommand(group, factory);
    getCommand(group, factory);
    const runs = group.command("runs").description("Reporter runs: one run over one subject");
    runsOpenCommand(runs, factory);
    const output = group.command("output").description("Outputs of reporter runs");
    outputPostCommand(output, factory);
    outputListCommand(output, factory);
  },
};

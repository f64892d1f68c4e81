// gauntlet wiki list|get|edit|history|search: one wiki per coworld. One file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { editCommand } from "./edit.ts";
import { getCommand } from "./get.ts";
import { historyCommand } from "./history.ts";
import { listCommand } from "./list.ts";
import { searchCommand } from "./search.ts";

export const wiki: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("wiki")
      .description("Wikis: one per coworld; read, edit, history, search");
    listCommand(group, factory);
    getCommand(group, factory);
    editCommand(group, factory);
    historyCommand(group, factory);
    searchCommand(group, factory);
  },
};

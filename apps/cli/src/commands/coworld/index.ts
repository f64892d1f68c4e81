// gauntlet coworld upload DIR|list|show|certify [--wait]|secret put|list|delete: one file per
// verb, each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { certifyCommand } from "./certify.ts";
import { listCommand } from "./list.ts";
import { secretCommands } from "./secret.ts";
import { showCommand } from "./show.ts";
import { uploadCommand } from "./upload.ts";

export const coworld: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("coworld")
      .description("Coworlds: the packaged games episodes run in");
    uploadCommand(group, factory);
    listCommand(group, factory);
    showCommand(group, factory);
    certifyCommand(group, factory);
    secretCommands(group, factory);
  },
};

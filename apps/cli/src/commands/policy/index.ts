// gauntlet policy upload DIR|--image REF, policy list, policy versions NAME, policy scrimmage
// POLICY on|off: one file per verb,
// each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { listCommand } from "./list.ts";
import { scrimmageCommand } from "./scrimmage.ts";
import { uploadCommand } from "./upload.ts";
import { versionsCommand } from "./versions.ts";

export const policy: CommandGroup = {
  register(program, _state, factory) {
    const group = program
      .command("policy")
      .description("Policies: your bots, uploaded as versions");
    uploadCommand(group, factory);
    listCommand(group, factory);
    versionsCommand(group, factory);
    scrimmageCommand(group, factory);
  },
};

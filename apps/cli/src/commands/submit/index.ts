// gauntlet submit POLICY[:vN] --league L, gauntlet submissions, gauntlet memberships: one file
// per verb, each options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { membershipsCommand } from "./memberships.ts";
import { submissionsCommand } from "./submissions.ts";
import { submitCommand } from "./submit.ts";

export const submit: CommandGroup = {
  register(program, _state, factory) {
    submitCommand(program, factory);
    submissionsCommand(program, factory);
    membershipsCommand(program, factory);
  },
};

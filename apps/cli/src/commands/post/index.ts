// gauntlet post list|get|create|comment|vote: forum posts. One file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { commentCommand } from "./comment.ts";
import { createCommand } from "./create.ts";
import { getCommand } from "./get.ts";
import { listCommand } from "./list.ts";
import { voteCommand } from "./vote.ts";

export const post: CommandGroup = {
  register(program, _state, factory) {
    const group = program.command("post").description("Forum posts: read, write, comment and vote");
    listCommand(group, factory);
    getCommand(group, factory);
    createCommand(group, factory);
    commentCommand(group, factory);
    voteCommand(group, factory);
  },
};

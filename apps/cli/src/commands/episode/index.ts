// gauntlet episode list|show|logs|artifact|replay|bundle|upload: one file per verb, each
// options -> run(options, {io, client}).
import type { CommandGroup } from "../group.ts";
import { artifactCommand } from "./artifact.ts";
import { bundleCommand } from "./bundle.ts";
import { listCommand } from "./list.ts";
import { logsCommand } from "./logs.ts";
import { replayCommand } from "./replay.ts";
import { showCommand } from "./show.ts";
import { uploadCommand } from "./upload.ts";

export const episode: CommandGroup = {
  register(program, _state, factory) {
    const group = program.command("episode").description("Episodes: single games between policies");
    listCommand(group, factory);
    showCommand(group, factory);
    logsCommand(group, factory);
    artifactCommand(group, factory);
    replayCommand(group, factory);
    bundleCommand(group, factory);
    uploadCommand(group, factory);
  },
};

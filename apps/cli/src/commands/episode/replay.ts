// gauntlet episode replay EPISODE [-o FILE]
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { deliver } from "./deliver.ts";

export interface ReplayOptions {
  episodeId: string;
  /** A file to write; null for standard output. */
  output: string | null;
}

export async function runReplay(options: ReplayOptions, { io, client }: Deps): Promise<void> {
  deliver(
    io,
    await client.episodeRequests.getArtifact({
      episode_request_id: options.episodeId,
      artifact_type: "replay",
    }),
    options.output,
  );
}

export function replayCommand(
  parent: Command,
  factory: Factory,
  run: (options: ReplayOptions, deps: Deps) => Promise<void> = runReplay,
): Command {
  return parent
    .command("replay")
    .description("Download an episode's replay (to standard output, or --output FILE)")
    .argument("<episode>", "episode id (ereq_…)")
    .option("-o, --output <file>", "write it to this file")
    .action(async (id: string, opts: { output?: string }, cmd: Command) => {
      const options = {
        episodeId: await checkId("episodeRequest", id, "EPISODE"),
        output: opts.output ?? null,
      };
      await run(options, await depsOf(factory, cmd));
    });
}

// gauntlet episode bundle EPISODE [-o FILE] [--include KINDS]
import type { Command } from "commander";

import type { InputOf } from "@gauntlet/sdk";

import { checkId } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { deliver } from "./deliver.ts";

export interface BundleOptions {
  episodeId: string;
  include: InputOf<"getEpisodeBundle">["include"];
  /** A file to write; null for standard output. */
  output: string | null;
}

export async function runBundle(options: BundleOptions, { io, client }: Deps): Promise<void> {
  deliver(
    io,
    await client.episodeRequests.getBundle({
      episode_request_id: options.episodeId,
      include: options.include,
    }),
    options.output,
  );
}

export function bundleCommand(
  parent: Command,
  factory: Factory,
  run: (options: BundleOptions, deps: Deps) => Promise<void> = runBundle,
): Command {
  return parent
    .command("bundle")
    .description("Download a zip of an episode's artifacts (to standard output, or --output FILE)")
    .argument("<episode>", "episode id (ereq_…)")
    .option("-o, --output <file>", "write it to this file")
    .option(
      "--include <kinds>",
      "comma-separated: spec, game-config, results, replay, logs, error-info, policy-logs, policy-artifacts (default: all)",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  gauntlet episode bundle ereq_… -o episode.zip\n  gauntlet episode bundle ereq_… --include results,replay > episode.zip",
    )
    .action(async (id: string, opts: { output?: string; include?: string }, cmd: Command) => {
      const episodeId = await checkId("episodeRequest", id, "EPISODE");
      const { EpisodeBundleQuery } = await import("@gauntlet/core");
      const query = EpisodeBundleQuery.safeParse({ include: opts.include });
      if (!query.success)
        throw new CliError(
          `--include: ${query.error.issues[0]?.message ?? "not a list of parts"}`,
          EXIT.usage,
        );
      const options = { episodeId, include: query.data.include, output: opts.output ?? null };
      await run(options, await depsOf(factory, cmd));
    });
}

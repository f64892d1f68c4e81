// gauntlet episode artifact EPISODE [--seat N] [-o FILE]
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { deliver } from "./deliver.ts";
import { parseSeat, seatOf } from "./seat.ts";

export interface ArtifactOptions {
  episodeId: string;
  seat: number;
  /** A file to write; null for standard output. */
  output: string | null;
}

export async function runArtifact(options: ArtifactOptions, { io, client }: Deps): Promise<void> {
  const episode_request_id = options.episodeId;
  const chosen = await seatOf(client, episode_request_id, options.seat);
  if (!chosen.has_artifact)
    throw new CliError(
      `seat ${chosen.position} of ${episode_request_id} uploaded no artifact`,
      EXIT.notFound,
    );
  deliver(
    io,
    await client.episodeRequests.getPolicyArtifact({
      episode_request_id,
      policy_version_id: chosen.policy_version_id ?? "bundled",
      idx: chosen.position,
    }),
    options.output,
  );
}

export function artifactCommand(
  parent: Command,
  factory: Factory,
  run: (options: ArtifactOptions, deps: Deps) => Promise<void> = runArtifact,
): Command {
  return parent
    .command("artifact")
    .description(
      "Download what a seat's player uploaded during the episode (to standard output, or --output FILE)",
    )
    .argument("<episode>", "episode id (ereq_…)")
    .option("--seat <n>", "the seat (0 first)", "0")
    .option("-o, --output <file>", "write it to this file")
    .action(async (id: string, opts: { seat: string; output?: string }, cmd: Command) => {
      const episodeId = await checkId("episodeRequest", id, "EPISODE");
      const options = { episodeId, seat: parseSeat(opts.seat), output: opts.output ?? null };
      await run(options, await depsOf(factory, cmd));
    });
}

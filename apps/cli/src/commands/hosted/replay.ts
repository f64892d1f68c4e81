// gauntlet hosted replay COWORLD REPLAY-URI [--episode]: the viewer's address on stdout.
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";

export interface ReplayOptions {
  coworldId: string;
  replayUri: string;
  episodeId: string | null;
  json: boolean;
}

export async function runReplay(options: ReplayOptions, { io, client }: Deps): Promise<void> {
  const opened = await client.replays.createSession({
    body: {
      coworld_id: options.coworldId,
      replay_uri: options.replayUri,
      ...(options.episodeId ? { episode_id: options.episodeId } : {}),
    },
  });
  if (options.json) return writeJson(io, opened);
  io.out.write(`${opened.viewer_url}\n`);
}

export function replayCommand(
  parent: Command,
  factory: Factory,
  run: (options: ReplayOptions, deps: Deps) => Promise<void> = runReplay,
): Command {
  return parent
    .command("replay")
    .description("Open a replay in the coworld's replay viewer: prints the viewer's address")
    .argument("<coworld>", "coworld version id (cow_…)")
    .argument(
      "<replay-uri>",
      "the episode's replay address (…/v2/episode-requests/{id}/artifacts/replay); the viewer gets a 15-minute capability for it",
    )
    .option("--episode <id>", "the episode the replay is of (when the address does not say)")
    .action(async (id: string, replayUri: string, opts: { episode?: string }, cmd: Command) => {
      const options = {
        coworldId: await checkId("coworld", id, "COWORLD"),
        replayUri,
        episodeId: opts.episode ?? null,
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}

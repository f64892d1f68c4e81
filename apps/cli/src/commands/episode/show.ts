// gauntlet episode show EPISODE
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { shortTime, writeFields, writeJson } from "../../output.ts";

export interface ShowOptions {
  episodeId: string;
  json: boolean;
}

export async function runShow(options: ShowOptions, { io, client }: Deps): Promise<void> {
  const e = await client.episodeRequests.get({ episode_request_id: options.episodeId });
  if (options.json) return writeJson(io, e);
  writeFields(io, [
    ["id", e.id],
    ["status", e.status],
    ["coworld", e.coworld_id],
    ["round", e.round_id],
    ["created", shortTime(e.created_at)],
    ["scores", e.scores.map((s) => s.score).join(" ")],
  ]);
}

export function showCommand(
  parent: Command,
  factory: Factory,
  run: (options: ShowOptions, deps: Deps) => Promise<void> = runShow,
): Command {
  return parent
    .command("show")
    .description("Show one episode and its scores")
    .argument("<episode>", "episode id (ereq_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const options = {
        episodeId: await checkId("episodeRequest", id, "EPISODE"),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}

// gauntlet episode logs EPISODE [--seat N]
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { parseSeat, seatOf } from "./seat.ts";

export interface LogsOptions {
  episodeId: string;
  seat: number;
  json: boolean;
}

export async function runLogs(options: LogsOptions, { io, client }: Deps): Promise<void> {
  const episode_request_id = options.episodeId;
  const chosen = await seatOf(client, episode_request_id, options.seat);
  const log = await client.episodeRequests.getPolicyLog({
    episode_request_id,
    policy_version_id: chosen.policy_version_id ?? "bundled",
    idx: chosen.position,
  });
  if (options.json) return writeJson(io, { episode_request_id, seat: chosen.position, log });
  io.out.write(log);
}

export function logsCommand(
  parent: Command,
  factory: Factory,
  run: (options: LogsOptions, deps: Deps) => Promise<void> = runLogs,
): Command {
  return parent
    .command("logs")
    .description("Print a seat's policy log")
    .argument("<episode>", "episode id (ereq_…)")
    .option("--seat <n>", "the seat (0 first)", "0")
    .action(async (id: string, opts: { seat: string }, cmd: Command) => {
      const options = {
        episodeId: await checkId("episodeRequest", id, "EPISODE"),
        seat: parseSeat(opts.seat),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}

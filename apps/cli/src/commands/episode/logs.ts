// gauntlet episode logs EPISODE [--seat N]: the game's log, or with --seat a seat's policy log.
// Each is read under the server's rules (the game's log: the coworld's owner, the requester and
// admins; a seat's: its policy's owner, the requester and admins).
import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { parseSeat, seatOf } from "./seat.ts";

export interface LogsOptions {
  episodeId: string;
  /** A seat's policy log; null for the game's log. */
  seat: number | null;
  json: boolean;
}

async function readLog(
  client: Deps["client"],
  episode_request_id: string,
  seat: number | null,
): Promise<{ seat: number | null; log: string }> {
  if (seat === null) {
    const bytes = await client.episodeRequests.getArtifact({
      episode_request_id,
      artifact_type: "logs",
    });
    return { seat: null, log: new TextDecoder().decode(bytes) };
  }
  const chosen = await seatOf(client, episode_request_id, seat);
  const log = await client.episodeRequests.getPolicyLog({
    episode_request_id,
    policy_version_id: chosen.policy_version_id ?? "bundled",
    idx: chosen.position,
  });
  return { seat: chosen.position, log };
}

export async function runLogs(options: LogsOptions, { io, client }: Deps): Promise<void> {
  const episode_request_id = options.episodeId;
  const { seat, log } = await readLog(client, episode_request_id, options.seat);
  if (options.json) return writeJson(io, { episode_request_id, seat, log });
  io.out.write(log);
}

export function logsCommand(
  parent: Command,
  factory: Factory,
  run: (options: LogsOptions, deps: Deps) => Promise<void> = runLogs,
): Command {
  return parent
    .command("logs")
    .description("Print the game's log, or with --seat a seat's policy log")
    .argument("<episode>", "episode id (ereq_…)")
    .option("--seat <n>", "a seat's policy log instead (0 first)")
    .addHelpText(
      "after",
      "\nThe game's log is readable by the coworld's owner, whoever requested the\nepisode and admins; a seat's log by its policy's owner, the requester and\nadmins.\n\nExamples:\n  $ gauntlet episode logs ereq_…\n  $ gauntlet episode logs ereq_… --seat 0",
    )
    .action(async (id: string, opts: { seat?: string }, cmd: Command) => {
      const options = {
        episodeId: await checkId("episodeRequest", id, "EPISODE"),
        seat: opts.seat === undefined ? null : parseSeat(opts.seat),
        json: wantsJson(cmd),
      };
      await run(options, await depsOf(factory, cmd));
    });
}

// gauntlet episode list|show|logs|replay
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

export const episode: CommandGroup = {
  register(program) {
    const group = program.command("episode").description("Episodes: single games between policies");

    group
      .command("list")
      .description("List episodes, newest first")
      .option("--division <division>", "division id (div_…)")
      .option("--round <round>", "round id (round_…)")
      .option("--status <status>", "pending, submitted, running, completed, failed or cancelled")
      .option("--limit <n>", "at most this many", "20")
      .action(async (opts: { division?: string; round?: string; status?: string; limit: string }, cmd: Command) => {
        const query = {
          ...(opts.division ? { division_id: await checkId("division", opts.division, "--division") } : {}),
          ...(opts.round ? { round_id: await checkId("round", opts.round, "--round") } : {}),
          ...(opts.status ? { status: opts.status as "pending" } : {}),
          limit: parsePositiveInt(opts.limit, "--limit"),
        };
        const client = await clientOf(cmd);
        const page = await client.episodeRequests.list(query);
        if (wantsJson(cmd)) return printJson(page);
        printTable(["id", "status", "round", "scores", "created"], page.entries.map((e) => [e.id, e.status, e.round_id, e.scores.map((s) => s.score).join(" "), shortTime(e.created_at)]), "no episodes");
      });

    group
      .command("show")
      .description("Show one episode and its scores")
      .argument("<episode>", "episode id (ereq_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
        const client = await clientOf(cmd);
        const e = await client.episodeRequests.get({ episode_request_id });
        if (wantsJson(cmd)) return printJson(e);
        printFields([
          ["id", e.id],
          ["status", e.status],
          ["coworld", e.coworld_id],
          ["round", e.round_id],
          ["created", shortTime(e.created_at)],
          ["scores", e.scores.map((s) => s.score).join(" ")],
        ]);
      });

    group
      .command("logs")
      .description("Print a seat's policy log")
      .argument("<episode>", "episode id (ereq_…)")
      .option("--seat <n>", "the seat (0 first)", "0")
      .action(async (id: string, opts: { seat: string }, cmd: Command) => {
        const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
        const seat = Number(opts.seat);
        if (!Number.isInteger(seat) || seat < 0) throw new CliError(`--seat: expected 0 or a positive whole number, got '${opts.seat}'`, EXIT.usage);
        const client = await clientOf(cmd);
        const seats = await client.episodeRequests.listPolicyArtifacts({ episode_request_id });
        const chosen = seats.find((s) => s.position === seat);
        if (!chosen) throw new CliError(`--seat: episode ${episode_request_id} has seats ${seats.map((s) => s.position).join(", ") || "none"}`, EXIT.notFound);
        const log = await client.episodeRequests.getPolicyLog({ episode_request_id, policy_version_id: chosen.policy_version_id ?? "bundled", idx: seat });
        if (wantsJson(cmd)) return printJson({ episode_request_id, seat, log });
        process.stdout.write(log);
      });

    group
      .command("replay")
      .description("Download an episode's replay (to standard output, or --output FILE)")
      .argument("<episode>", "episode id (ereq_…)")
      .option("-o, --output <file>", "write it to this file")
      .action(async (id: string, opts: { output?: string }, cmd: Command) => {
        const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
        const client = await clientOf(cmd);
        const bytes = await client.episodeRequests.getArtifact({ episode_request_id, artifact_type: "replay" });
        if (opts.output) {
          writeFileSync(opts.output, bytes);
          note(`wrote ${bytes.byteLength} bytes to ${opts.output}`);
        } else process.stdout.write(bytes);
      });
  },
};

// gauntlet episode list|show|logs|replay|bundle|upload
import { readFileSync, writeFileSync } from "node:fs";

import type { Command } from "commander";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

/** The seat `--seat` names in an episode, with the client that found it (exit 2 or 3 when it is not there). */
async function seatOf(id: string, seatText: string, cmd: Command) {
  const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
  const seat = Number(seatText);
  if (!Number.isInteger(seat) || seat < 0)
    throw new CliError(
      `--seat: expected 0 or a positive whole number, got '${seatText}'`,
      EXIT.usage,
    );
  const client = await clientOf(cmd);
  const seats = await client.episodeRequests.listPolicyArtifacts({ episode_request_id });
  const chosen = seats.find((s) => s.position === seat);
  if (!chosen)
    throw new CliError(
      `--seat: episode ${episode_request_id} has seats ${seats.map((s) => s.position).join(", ") || "none"}`,
      EXIT.notFound,
    );
  return { client, episode_request_id, chosen };
}

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
      .action(
        async (
          opts: { division?: string; round?: string; status?: string; limit: string },
          cmd: Command,
        ) => {
          const query = {
            ...(opts.division
              ? { division_id: await checkId("division", opts.division, "--division") }
              : {}),
            ...(opts.round ? { round_id: await checkId("round", opts.round, "--round") } : {}),
            ...(opts.status ? { status: opts.status as "pending" } : {}),
            limit: parsePositiveInt(opts.limit, "--limit"),
          };
          const client = await clientOf(cmd);
          const page = await client.episodeRequests.list(query);
          if (wantsJson(cmd)) return printJson(page);
          printTable(
            ["id", "status", "round", "scores", "created"],
            page.entries.map((e) => [
              e.id,
              e.status,
              e.round_id,
              e.scores.map((s) => s.score).join(" "),
              shortTime(e.created_at),
            ]),
            "no episodes",
          );
        },
      );

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
        const { client, episode_request_id, chosen } = await seatOf(id, opts.seat, cmd);
        const log = await client.episodeRequests.getPolicyLog({
          episode_request_id,
          policy_version_id: chosen.policy_version_id ?? "bundled",
          idx: chosen.position,
        });
        if (wantsJson(cmd)) return printJson({ episode_request_id, seat: chosen.position, log });
        process.stdout.write(log);
      });

    group
      .command("artifact")
      .description(
        "Download what a seat's player uploaded during the episode (to standard output, or --output FILE)",
      )
      .argument("<episode>", "episode id (ereq_…)")
      .option("--seat <n>", "the seat (0 first)", "0")
      .option("-o, --output <file>", "write it to this file")
      .action(async (id: string, opts: { seat: string; output?: string }, cmd: Command) => {
        const { client, episode_request_id, chosen } = await seatOf(id, opts.seat, cmd);
        if (!chosen.has_artifact)
          throw new CliError(
            `seat ${chosen.position} of ${episode_request_id} uploaded no artifact`,
            EXIT.notFound,
          );
        deliver(
          await client.episodeRequests.getPolicyArtifact({
            episode_request_id,
            policy_version_id: chosen.policy_version_id ?? "bundled",
            idx: chosen.position,
          }),
          opts.output,
        );
      });

    group
      .command("replay")
      .description("Download an episode's replay (to standard output, or --output FILE)")
      .argument("<episode>", "episode id (ereq_…)")
      .option("-o, --output <file>", "write it to this file")
      .action(async (id: string, opts: { output?: string }, cmd: Command) => {
        const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
        const client = await clientOf(cmd);
        deliver(
          await client.episodeRequests.getArtifact({ episode_request_id, artifact_type: "replay" }),
          opts.output,
        );
      });

    group
      .command("bundle")
      .description(
        "Download a zip of an episode's artifacts (to standard output, or --output FILE)",
      )
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
        const episode_request_id = await checkId("episodeRequest", id, "EPISODE");
        const { EpisodeBundleQuery } = await import("@gauntlet/core");
        const query = EpisodeBundleQuery.safeParse({ include: opts.include });
        if (!query.success)
          throw new CliError(
            `--include: ${query.error.issues[0]?.message ?? "not a list of parts"}`,
            EXIT.usage,
          );
        const client = await clientOf(cmd);
        deliver(
          await client.episodeRequests.getBundle({
            episode_request_id,
            include: query.data.include,
          }),
          opts.output,
        );
      });

    group
      .command("upload")
      .description("Bulk upload episodes played elsewhere: DuckDB files, each in one transaction")
      .argument("<files...>", "DuckDB files (.duckdb)")
      .addHelpText(
        "after",
        `
Each file holds four tables: episodes(id, coworld_id) (optional created_at, replay_url),
episode_tags(episode_id, key, value), episode_agent_policies(episode_id, agent_id,
policy_version_id) and episode_agent_metrics(episode_id, agent_id, metric, value). An episode
seats one participant per policy version; its score is the sum of that version's 'reward'
metric. A file the server cannot read stores nothing.

Examples:
  gauntlet episode upload results.duckdb
  gauntlet episode upload week1.duckdb week2.duckdb --json`,
      )
      .action(async (files: string[], _opts: unknown, cmd: Command) => {
        // Checked before anything is sent: a wrong file fails fast, and no upload is half done.
        const contents = files.map((file) => {
          let bytes: Buffer;
          try {
            bytes = readFileSync(file);
          } catch (error) {
            throw new CliError(
              `${file}: cannot read it (${error instanceof Error && "code" in error ? String(error.code) : "unknown error"})`,
              EXIT.usage,
            );
          }
          if (!isDuckDb(bytes))
            throw new CliError(
              `${file}: not a DuckDB file (the server reads DuckDB files only; see gauntlet episode upload --help)`,
              EXIT.usage,
            );
          return { file, bytes };
        });
        const client = await clientOf(cmd);
        const results = [];
        for (const { file, bytes } of contents) {
          const started = await client.bulkUploads.start();
          // The signed address may be another store's (S3): a plain PUT, as the spec has it.
          const put = await fetch(started.upload_url, {
            method: "PUT",
            headers: { "content-type": "application/octet-stream" },
            body: new Uint8Array(bytes),
          });
          if (!put.ok)
            throw new CliError(
              `${file}: the upload was refused (${put.status} ${(await put.text()).slice(0, 200)})`,
              EXIT.failure,
            );
          const done = await client.bulkUploads.complete({
            body: { upload_id: started.upload_id },
          });
          results.push({ file, upload_id: started.upload_id, ...done });
          if (!wantsJson(cmd)) note(`${file}: ${done.episodes_created} episodes created`);
        }
        if (wantsJson(cmd)) printJson(results);
      });
  },
};

/** Downloaded bytes: to `output` (saying so on stderr), else to standard output. */
function deliver(bytes: Uint8Array, output: string | undefined): void {
  if (output) {
    writeFileSync(output, bytes);
    note(`wrote ${bytes.byteLength} bytes to ${output}`);
  } else process.stdout.write(bytes);
}

/** DuckDB's file header: a checksum, then the magic "DUCK" at byte 8. */
function isDuckDb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 && new TextDecoder().decode(bytes.subarray(8, 12)) === "DUCK";
}

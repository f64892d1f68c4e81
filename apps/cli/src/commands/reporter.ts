// gauntlet reporter register|rotate-key|list|get|runs open|output post|output list
import { readFileSync } from "node:fs";

import type { Command } from "commander";

import { checkId, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

const MODES = ["manual", "live"] as const;
type Mode = (typeof MODES)[number];

function checkMode(value: string | undefined, label: string): Mode | undefined {
  if (value === undefined) return undefined;
  const mode = MODES.find((m) => m === value);
  if (!mode) throw new CliError(`${label}: expected manual or live, got '${value}'`, EXIT.usage);
  return mode;
}

/** The key from --key or GAUNTLET_REPORTER_KEY (the variable keeps it out of shell history). */
function reporterKey(given: string | undefined): string {
  const key = given ?? process.env.GAUNTLET_REPORTER_KEY;
  if (!key)
    throw new CliError(
      "no reporter key: set GAUNTLET_REPORTER_KEY (or pass --key), as `gauntlet reporter register` printed it",
      EXIT.usage,
    );
  return key;
}

async function readOutput(path: string): Promise<Uint8Array> {
  if (path === "-") {
    if (process.stdin.isTTY)
      throw new CliError(
        "FILE '-' reads the output from standard input: gauntlet reporter output post - --run RUN ... < summary.html",
        EXIT.usage,
      );
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  }
  try {
    return new Uint8Array(readFileSync(path));
  } catch {
    throw new CliError(`FILE: cannot read '${path}'`, EXIT.usage);
  }
}

interface SubjectOptions {
  episode?: string;
  round?: string;
  division?: string;
  text?: string;
}

async function subjectOf(opts: SubjectOptions) {
  const given = [opts.episode, opts.round, opts.division, opts.text].filter(
    (v) => v !== undefined,
  ).length;
  if (given !== 1)
    throw new CliError("give exactly one of --episode, --round, --division or --text", EXIT.usage);
  if (opts.episode !== undefined)
    return {
      subject_type: "episode" as const,
      subject_id: await checkId("episodeRequest", opts.episode, "--episode"),
    };
  if (opts.round !== undefined)
    return {
      subject_type: "round" as const,
      subject_id: await checkId("round", opts.round, "--round"),
    };
  if (opts.division !== undefined)
    return {
      subject_type: "division" as const,
      subject_id: await checkId("division", opts.division, "--division"),
    };
  return { subject_type: "text" as const, subject_text: opts.text ?? "" };
}

export const reporter: CommandGroup = {
  register(program) {
    const group = program
      .command("reporter")
      .description("Reporters: programs that write up episodes, rounds and divisions");

    group
      .command("register")
      .description("Register a reporter; prints its key once")
      .argument("<name>", "the reporter's name")
      .option("--description <text>", "what it writes")
      .option("--type <type>", "what it writes about, e.g. round-summary", "general")
      .option("--mode <mode>", "manual or live", "manual")
      .action(
        async (
          name: string,
          opts: { description?: string; type: string; mode: string },
          cmd: Command,
        ) => {
          const mode = checkMode(opts.mode, "--mode") ?? "manual";
          const client = await clientOf(cmd);
          const created = await client.reporters.register({
            body: {
              name,
              type: opts.type,
              mode,
              ...(opts.description ? { description: opts.description } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(created);
          printFields([
            ["id", created.id],
            ["name", created.name],
            ["key", created.reporter_key],
          ]);
          note(
            "the key is shown only now: keep it (e.g. GAUNTLET_REPORTER_KEY); `gauntlet reporter rotate-key` replaces a lost one",
          );
        },
      );

    group
      .command("rotate-key")
      .description("Replace a reporter's key; the old one stops working at once")
      .argument("<reporter>", "reporter id (rptr_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const reporter_id = await checkId("reporter", id, "REPORTER");
        const client = await clientOf(cmd);
        const rotated = await client.reporters.rotateKey({ reporter_id });
        if (wantsJson(cmd)) return printJson(rotated);
        printFields([
          ["id", rotated.id],
          ["key", rotated.reporter_key],
        ]);
        note("the key is shown only now; the old key no longer works");
      });

    group
      .command("list")
      .description("List reporters, newest first")
      .option("-q, --query <words>", "words of the name or description")
      .option("--type <type>", "only this type")
      .option("--mode <mode>", "manual or live")
      .option("--author <user>", "the owner's user id or email")
      .option("--limit <n>", "at most this many", "50")
      .action(
        async (
          opts: { query?: string; type?: string; mode?: string; author?: string; limit: string },
          cmd: Command,
        ) => {
          const mode = checkMode(opts.mode, "--mode");
          const limit = parsePositiveInt(opts.limit, "--limit");
          const client = await clientOf(cmd);
          const rows = await client.reporters.list({
            limit,
            ...(opts.query ? { q: opts.query } : {}),
            ...(opts.type ? { type: opts.type } : {}),
            ...(mode ? { mode } : {}),
            ...(opts.author ? { author: opts.author } : {}),
          });
          if (wantsJson(cmd)) return printJson(rows);
          printTable(
            ["id", "name", "type", "mode", "runs", "outputs", "created"],
            rows.map((r) => [
              r.id,
              r.name,
              r.type,
              r.mode,
              r.run_count,
              r.output_count,
              shortTime(r.created),
            ]),
            "no reporters",
          );
        },
      );

    group
      .command("get")
      .description("Show one reporter")
      .argument("<reporter>", "reporter id (rptr_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const reporter_id = await checkId("reporter", id, "REPORTER");
        const client = await clientOf(cmd);
        const r = await client.reporters.get({ reporter_id });
        if (wantsJson(cmd)) return printJson(r);
        printFields([
          ["id", r.id],
          ["name", r.name],
          ["description", r.description],
          ["type", r.type],
          ["mode", r.mode],
          ["owner", r.user_id],
          ["runs", r.run_count],
          ["outputs", r.output_count],
          ["created", shortTime(r.created)],
          ["key rotated", shortTime(r.key_rotated_at)],
        ]);
      });

    const runs = group.command("runs").description("Reporter runs: one run over one subject");
    runs
      .command("open")
      .description("Open a run of a reporter over an episode, a round, a division or free text")
      .argument("<reporter>", "reporter id (rptr_…)")
      .option("--episode <episode>", "episode id (ereq_…)")
      .option("--round <round>", "round id (round_…)")
      .option("--division <division>", "division id (div_…)")
      .option("--text <text>", "a subject in words")
      .action(async (id: string, opts: SubjectOptions, cmd: Command) => {
        const reporter_id = await checkId("reporter", id, "REPORTER");
        const body = await subjectOf(opts);
        const client = await clientOf(cmd);
        const run = await client.reporterRuns.open({ reporter_id, body });
        if (wantsJson(cmd)) return printJson(run);
        printFields([
          ["id", run.id],
          ["reporter", run.reporter_id],
          [
            "subject",
            run.subject_type === "text"
              ? run.subject_text
              : `${run.subject_type} ${run.subject_id ?? ""}`,
          ],
        ]);
      });

    const output = group.command("output").description("Outputs of reporter runs");
    output
      .command("post")
      .description(
        "Post FILE ('-' for standard input) as an output of a run, with the reporter's key",
      )
      .argument("<file>", "the output's file, or - for standard input")
      .requiredOption("--run <run>", "reporter run id (rrun_…)")
      .option("--name <name>", "the output's name (default: the file's name)")
      .option("--type <type>", "html, markdown, json, text, or another word", "text")
      .option("--media-type <type>", "served with the bytes (default: from --type)")
      .option("--key <key>", "the reporter key (default: GAUNTLET_REPORTER_KEY)")
      .action(
        async (
          file: string,
          opts: { run: string; name?: string; type: string; mediaType?: string; key?: string },
          cmd: Command,
        ) => {
          const reporter_run_id = await checkId("reporterRun", opts.run, "--run");
          const name = opts.name ?? (file === "-" ? undefined : file.split(/[\\/]/).pop());
          if (!name)
            throw new CliError(
              "--name is required when the output is read from standard input",
              EXIT.usage,
            );
          const key = reporterKey(opts.key);
          const body = await readOutput(file);
          const client = await clientOf(cmd, { anonymous: true });
          const posted = await client.reporterOutputs.post(
            {
              reporter_run_id,
              name,
              type: opts.type,
              body,
              ...(opts.mediaType ? { media_type: opts.mediaType } : {}),
            },
            { headers: { "X-Reporter-Key": key } },
          );
          if (wantsJson(cmd)) return printJson(posted);
          printFields([
            ["id", posted.id],
            ["name", posted.name],
            ["size", posted.size_bytes],
            ["sha256", posted.content_hash],
            ["url", posted.url],
          ]);
        },
      );

    output
      .command("list")
      .description("List the outputs of a run (--run) or of a reporter (--reporter)")
      .option("--run <run>", "reporter run id (rrun_…)")
      .option("--reporter <reporter>", "reporter id (rptr_…)")
      .action(async (opts: { run?: string; reporter?: string }, cmd: Command) => {
        if ((opts.run === undefined) === (opts.reporter === undefined))
          throw new CliError("give exactly one of --run or --reporter", EXIT.usage);
        const client = await clientOf(cmd);
        const rows =
          opts.run !== undefined
            ? await client.reporterRuns.output({
                reporter_run_id: await checkId("reporterRun", opts.run, "--run"),
              })
            : await client.reporters.listOutputs({
                reporter_id: await checkId("reporter", opts.reporter ?? "", "--reporter"),
              });
        if (wantsJson(cmd)) return printJson(rows);
        printTable(
          ["id", "run", "name", "type", "bytes", "created"],
          rows.map((o) => [
            o.id,
            o.reporter_run_id,
            o.name,
            o.type,
            o.size_bytes,
            shortTime(o.created_at),
          ]),
          "no outputs",
        );
      });
  },
};

// gauntlet reporter output post FILE --run RUN [--name] [--type] [--media-type] [--key]
import { readFileSync } from "node:fs";

import type { Command } from "commander";

import { checkId, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { type Deps, type Factory } from "../../factory.ts";
import { writeFields, writeJson } from "../../output.ts";

export interface OutputPostOptions {
  runId: string;
  /** A path, or "-" for standard input. */
  file: string;
  name: string;
  type: string;
  mediaType: string | null;
  key: string;
  json: boolean;
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

async function readOutput(path: string, io: Deps["io"]): Promise<Uint8Array> {
  if (path === "-") {
    if (io.in.isTTY)
      throw new CliError(
        "FILE '-' reads the output from standard input: gauntlet reporter output post - --run RUN ... < summary.html",
        EXIT.usage,
      );
    return io.in.readBytes();
  }
  try {
    return new Uint8Array(readFileSync(path));
  } catch {
    throw new CliError(`FILE: cannot read '${path}'`, EXIT.usage);
  }
}

/** Posts with the reporter's key alone: `deps.client` should send no user token. */
export async function runOutputPost(
  options: OutputPostOptions,
  { io, client }: Deps,
): Promise<void> {
  const body = await readOutput(options.file, io);
  const posted = await client.reporterOutputs.post(
    {
      reporter_run_id: options.runId,
      name: options.name,
      type: options.type,
      body,
      ...(options.mediaType ? { media_type: options.mediaType } : {}),
    },
    { headers: { "X-Reporter-Key": options.key } },
  );
  if (options.json) return writeJson(io, posted);
  writeFields(io, [
    ["id", posted.id],
    ["name", posted.name],
    ["size", posted.size_bytes],
    ["sha256", posted.content_hash],
    ["url", posted.url],
  ]);
}

export function outputPostCommand(
  parent: Command,
  factory: Factory,
  run: (options: OutputPostOptions, deps: Deps) => Promise<void> = runOutputPost,
): Command {
  return parent
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
        const runId = await checkId("reporterRun", opts.run, "--run");
        const name = opts.name ?? (file === "-" ? undefined : file.split(/[\\/]/).pop());
        if (!name)
          throw new CliError(
            "--name is required when the output is read from standard input",
            EXIT.usage,
          );
        const options = {
          runId,
          file,
          name,
          type: opts.type,
          mediaType: opts.mediaType ?? null,
          key: reporterKey(opts.key),
          json: wantsJson(cmd),
        };
        const client = await factory.client(cmd, { anonymous: true });
        await run(options, { io: factory.io, client });
      },
    );
}

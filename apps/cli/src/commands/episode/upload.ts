// gauntlet episode upload FILE...: bulk upload of episodes played elsewhere (DuckDB files).
import { readFileSync } from "node:fs";

import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";

export interface UploadOptions {
  /** Each file's name and bytes, read and checked before anything is sent. */
  files: { file: string; bytes: Buffer }[];
  json: boolean;
}

/** DuckDB's file header: a checksum, then the magic "DUCK" at byte 8. */
function isDuckDb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 && new TextDecoder().decode(bytes.subarray(8, 12)) === "DUCK";
}

/** Reads and checks every file first: a wrong file fails fast, and no upload is half done. */
export function readDuckDbFiles(files: readonly string[]): UploadOptions["files"] {
  return files.map((file) => {
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
}

export async function runUpload(options: UploadOptions, { io, client }: Deps): Promise<void> {
  const results = [];
  for (const { file, bytes } of options.files) {
    const started = await client.bulkUploads.start();
    // The signed address may be another store's (S3): a plain PUT (docs/api.md, "Groups").
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
    const done = await client.bulkUploads.complete({ body: { upload_id: started.upload_id } });
    results.push({ file, upload_id: started.upload_id, ...done });
    if (!options.json) writeNote(io, `${file}: ${done.episodes_created} episodes created`);
  }
  if (options.json) writeJson(io, results);
}

export function uploadCommand(
  parent: Command,
  factory: Factory,
  run: (options: UploadOptions, deps: Deps) => Promise<void> = runUpload,
): Command {
  return parent
    .command("upload")
    .description("Bulk upload episodes played elsewhere: DuckDB files, each in one transaction")
    .argument("<files...>", "DuckDB files (.duckdb)")
    .addHelpText(
      "after",
      `
Each file holds four tables: episodes(id, coworld_id) (optional created_at,
replay_url), episode_tags(episode_id, key, value),
episode_agent_policies(episode_id, agent_id, policy_version_id) and
episode_agent_metrics(episode_id, agent_id, metric, value). An episode seats one
participant per policy version; its score is the sum of that version's 'reward'
metric. A file the server cannot read stores nothing.

Examples:
  gauntlet episode upload results.duckdb
  gauntlet episode upload week1.duckdb week2.duckdb --json`,
    )
    .action(async (files: string[], _opts: unknown, cmd: Command) => {
      const options = { files: readDuckDbFiles(files), json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}

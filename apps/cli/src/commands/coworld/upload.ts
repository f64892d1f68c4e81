// gauntlet coworld upload DIR: packs DIR and registers its coworld_manifest.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeJson, writeNote } from "../../output.ts";
import { megabytes, packDirectory } from "../../pack.ts";
import { withSpinner } from "../../spinner.ts";

export interface UploadOptions {
  /** DIR packed, before any request (a bad directory is a usage error, not the server's). */
  bundle: Uint8Array;
  manifest: Record<string, unknown>;
  json: boolean;
}

function readManifest(dir: string): Record<string, unknown> {
  const path = join(dir, "coworld_manifest.json");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`DIR: no coworld_manifest.json in '${dir}'`, EXIT.usage);
  }
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json !== "object" || json === null || Array.isArray(json))
      throw new Error("not an object");
    return json as Record<string, unknown>;
  } catch {
    throw new CliError(`${path}: not a JSON object`, EXIT.usage);
  }
}

export async function runUpload(options: UploadOptions, { io, client }: Deps): Promise<void> {
  const { bundle } = options;
  const created = await withSpinner(
    `uploading ${megabytes(bundle.byteLength)}`,
    async (spinner) => {
      const { upload_id } = await client.coworlds.uploadBundle({ body: bundle });
      spinner.text("registering the coworld");
      // The manifest is checked by the server against the contract; its errors name the field.
      return client.coworlds.upload({
        body: { manifest: options.manifest, bundle_upload_id: upload_id },
      });
    },
    io.err,
  );
  if (options.json) return writeJson(io, created);
  writeNote(io, `uploaded coworld ${created.name} ${created.version} (${created.id})`);
}

export function uploadCommand(
  parent: Command,
  factory: Factory,
  run: (options: UploadOptions, deps: Deps) => Promise<void> = runUpload,
): Command {
  return parent
    .command("upload")
    .description("Upload a coworld: DIR holds coworld_manifest.json and the files it runs")
    .argument("<dir>", "the coworld's directory")
    .action(async (dir: string, _opts: unknown, cmd: Command) => {
      const manifest = readManifest(dir);
      const options = { bundle: await packDirectory(dir, "DIR"), manifest, json: wantsJson(cmd) };
      await run(options, await depsOf(factory, cmd));
    });
}

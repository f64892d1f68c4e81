// gauntlet policy upload DIR --run CMD | --image REF, --name NAME [--player]
import { createHash } from "node:crypto";

import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { currentLeague } from "../../names/current-league.ts";
import { playerIdOf, serverKey } from "../../names/resolve.ts";
import { writeJson, writeNote } from "../../output.ts";
import { megabytes, packDirectory } from "../../pack.ts";
import { withSpinner } from "../../spinner.ts";

export interface UploadOptions {
  name: string;
  /**
   * DIR packed (before any request, so a bad directory is a usage error) and the command that
   * starts it, or a container image.
   */
  source: { bundle: Uint8Array; run: string[] } | { image: string };
  playerId: string | null;
  json: boolean;
}

export async function runUpload(options: UploadOptions, { io, client }: Deps): Promise<void> {
  const { name, source } = options;
  const player = options.playerId ? { player_id: options.playerId } : {};
  const created =
    "bundle" in source
      ? await withSpinner(
          `uploading ${megabytes(source.bundle.byteLength)}`,
          async (spinner) => {
            const uploaded = await client.policyBundles.upload({ body: source.bundle });
            await client.policyBundles.complete({ body: { id: uploaded.id } });
            spinner.text("creating the policy version");
            return client.policyVersions.create({
              body: { name, policy_bundle_id: uploaded.id, run: source.run, ...player },
            });
          },
          io.err,
        )
      : await withSpinner(
          `registering ${source.image}`,
          async () => {
            const registered = await client.containerImages.upload({
              body: {
                name: source.image,
                client_hash: `sha256:${createHash("sha256").update(source.image).digest("hex")}`,
              },
            });
            await client.containerImages.complete({ body: { id: registered.image.id } });
            return client.policyVersions.create({
              body: { name, container_image_id: registered.image.id, ...player },
            });
          },
          io.err,
        );
  if (options.json) return writeJson(io, created);
  writeNote(io, `uploaded ${created.name} v${created.version} (${created.id})`);
  const submit = `gauntlet submit ${created.name}:v${created.version}`;
  const current = await currentLeague(serverKey(client));
  writeNote(
    io,
    current
      ? `submit it to ${current.name} (the current league): ${submit}`
      : `submit it to a league: ${submit} --league NAME`,
  );
}

export function uploadCommand(
  parent: Command,
  factory: Factory,
  run: (options: UploadOptions, deps: Deps) => Promise<void> = runUpload,
): Command {
  return parent
    .command("upload")
    .description("Upload a new version of a policy, from a directory or a container image")
    .argument("[dir]", "the policy's files (packed and uploaded)")
    .requiredOption("--name <name>", "the policy's name (a new version is added to it)")
    .option(
      "--run <command>",
      'with DIR: the command that starts the policy inside DIR, e.g. "node bot.ts"',
    )
    .option("--image <ref>", "instead of DIR: a pullable container image, e.g. ghcr.io/me/bot:1")
    .option("--player <player>", "the player of yours that owns the version (its name or id)")
    .addHelpText(
      "after",
      '\nExamples:\n  $ gauntlet policy upload ./bot --name my-bot --run "node bot.ts"\n  $ gauntlet policy upload --image ghcr.io/me/bot:1 --name my-bot',
    )
    .action(
      async (
        dir: string | undefined,
        opts: { name: string; run?: string; image?: string; player?: string },
        cmd: Command,
      ) => {
        if ((dir === undefined) === (opts.image === undefined))
          throw new CliError(
            "policy upload takes a directory or --image REF (one of the two)",
            EXIT.usage,
          );
        const deps = await depsOf(factory, cmd);
        const playerId = opts.player
          ? await playerIdOf(deps.client, opts.player, "--player")
          : null;
        let source: UploadOptions["source"];
        if (dir !== undefined) {
          const command = opts.run?.trim().split(/\s+/).filter(Boolean);
          if (!command || command.length === 0)
            throw new CliError(
              '--run: say how to start the policy inside DIR, e.g. --run "node bot.ts"',
              EXIT.usage,
            );
          source = { bundle: await packDirectory(dir, "DIR"), run: command };
        } else source = { image: opts.image ?? "" };
        const options = { name: opts.name, source, playerId, json: wantsJson(cmd) };
        await run(options, deps);
      },
    );
}

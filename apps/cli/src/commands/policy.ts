// gauntlet policy upload DIR|--image REF, policy list, policy versions NAME
import { createHash } from "node:crypto";

import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printJson, printTable, shortTime } from "../output.ts";
import { megabytes, packDirectory } from "../pack.ts";
import { withSpinner } from "../spinner.ts";
import type { CommandGroup } from "./group.ts";

export const policy: CommandGroup = {
  register(program) {
    const group = program
      .command("policy")
      .description("Policies: your bots, uploaded as versions");

    group
      .command("upload")
      .description("Upload a new version of a policy, from a directory or a container image")
      .argument("[dir]", "the policy's files (packed and uploaded)")
      .requiredOption("--name <name>", "the policy's name (a new version is added to it)")
      .option(
        "--run <command>",
        'with DIR: the command that starts the policy inside DIR, e.g. "node bot.ts"',
      )
      .option("--image <ref>", "instead of DIR: a pullable container image, e.g. ghcr.io/me/bot:1")
      .option("--player <player>", "the player that owns the version (ply_…)")
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
          const player = opts.player
            ? { player_id: await checkId("player", opts.player, "--player") }
            : {};
          let created;
          if (dir !== undefined) {
            const run = opts.run?.trim().split(/\s+/).filter(Boolean);
            if (!run || run.length === 0)
              throw new CliError(
                '--run: say how to start the policy inside DIR, e.g. --run "node bot.ts"',
                EXIT.usage,
              );
            const bundle = await packDirectory(dir, "DIR");
            const client = await clientOf(cmd);
            created = await withSpinner(
              `uploading ${megabytes(bundle.byteLength)}`,
              async (spinner) => {
                const uploaded = await client.policyBundles.upload({ body: bundle });
                await client.policyBundles.complete({ body: { id: uploaded.id } });
                spinner.text("creating the policy version");
                return client.policyVersions.create({
                  body: { name: opts.name, policy_bundle_id: uploaded.id, run, ...player },
                });
              },
            );
          } else {
            const image = opts.image ?? "";
            const client = await clientOf(cmd);
            created = await withSpinner(`registering ${image}`, async () => {
              const registered = await client.containerImages.upload({
                body: {
                  name: image,
                  client_hash: `sha256:${createHash("sha256").update(image).digest("hex")}`,
                },
              });
              await client.containerImages.complete({ body: { id: registered.image.id } });
              return client.policyVersions.create({
                body: { name: opts.name, container_image_id: registered.image.id, ...player },
              });
            });
          }
          if (wantsJson(cmd)) return printJson(created);
          note(`uploaded ${created.name} v${created.version} (${created.id})`);
          note(
            `submit it to a league: gauntlet submit ${created.name}:v${created.version} --league league_…`,
          );
        },
      );

    group
      .command("list")
      .description("List policy versions (yours with --mine)")
      .option("--name <name>", "only this policy")
      .option("--mine", "only yours")
      .option("--limit <n>", "at most this many", "50")
      .action(async (opts: { name?: string; mine?: boolean; limit: string }, cmd: Command) => {
        const client = await clientOf(cmd);
        const versions = await client.policyVersions.list({
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.mine ? { mine: true } : {}),
          limit: Number(opts.limit),
        });
        if (wantsJson(cmd)) return printJson(versions);
        printTable(
          ["id", "name", "version", "created"],
          versions.map((v) => [v.id, v.policy.name, `v${v.version}`, shortTime(v.created_at)]),
          "no policy versions",
        );
      });

    group
      .command("versions")
      .description("The versions of one policy, newest first")
      .argument("<name>", "the policy's name")
      .action(async (name: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const versions = await client.policyVersions.list({ name });
        if (wantsJson(cmd)) return printJson(versions);
        const sorted = [...versions].sort((a, b) => b.version - a.version);
        printTable(
          ["version", "id", "created"],
          sorted.map((v) => [`v${v.version}`, v.id, shortTime(v.created_at)]),
          `no policy named ${name}`,
        );
      });
  },
};

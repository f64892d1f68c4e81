// gauntlet hosted create COWORLD [--variant] [--players] [--config] [--spectators]
import type { Command } from "commander";

import { checkId, parseJsonObject, parsePositiveInt, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { writeFields, writeJson, writeNote } from "../../output.ts";

export interface CreateOptions {
  coworldId: string;
  variantId: string | null;
  /** null: the coworld's smallest roster. */
  players: number | null;
  config: Record<string, unknown> | null;
  spectators: boolean;
  json: boolean;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const created = await client.hostedGames.create({
    body: {
      coworld_id: options.coworldId,
      allow_spectators: options.spectators,
      ...(options.variantId ? { variant_id: options.variantId } : {}),
      ...(options.players !== null ? { player_count: options.players } : {}),
      ...(options.config ? { game_config: options.config } : {}),
    },
  });
  if (options.json) return writeJson(io, created);
  writeFields(io, [
    ["session", created.session_id],
    ["slots", created.player_count],
    ["join", created.join_url],
    ["lobby", created.lobby_url],
  ]);
  writeNote(
    io,
    `Open the join page in a browser, or join from a program: gauntlet hosted join ${created.session_id}`,
  );
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Host a game of a coworld: prints the page to join it and the lobby page")
    .argument("<coworld>", "coworld version id (cow_…)")
    .option("--variant <id>", "the coworld's variant")
    .option("--players <n>", "how many slots (the coworld's smallest roster by default)")
    .option(
      "--config <json>",
      "game config overrides, a JSON object (e.g. a longer turn timeout for people)",
    )
    .option("--spectators", "show who joined on the lobby page")
    .action(
      async (
        id: string,
        opts: { variant?: string; players?: string; config?: string; spectators?: boolean },
        cmd: Command,
      ) => {
        const options = {
          coworldId: await checkId("coworld", id, "COWORLD"),
          variantId: opts.variant ?? null,
          players: opts.players === undefined ? null : parsePositiveInt(opts.players, "--players"),
          config: opts.config === undefined ? null : parseJsonObject(opts.config, "--config"),
          spectators: opts.spectators === true,
          json: wantsJson(cmd),
        };
        await run(options, await depsOf(factory, cmd));
      },
    );
}

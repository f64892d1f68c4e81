// gauntlet lobby update LOBBY [--variant | --default-variant] [--config]
import type { Command } from "commander";

import { parseJsonObject, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { lobbyArg, writeLobby } from "./shared.ts";

export interface UpdateOptions {
  lobbyId: string;
  /** Absent: unchanged; null: back to the default variant. */
  variant: { variant_id: string | null } | null;
  overrides: Record<string, unknown> | null;
  json: boolean;
}

export async function runUpdate(options: UpdateOptions, { io, client }: Deps): Promise<void> {
  const updated = await client.lobbies.update({
    lobby_id: options.lobbyId,
    body: {
      ...(options.variant ?? {}),
      ...(options.overrides ? { game_config_overrides: options.overrides } : {}),
    },
  });
  writeLobby(io, updated, options.json);
}

export function updateCommand(
  parent: Command,
  factory: Factory,
  run: (options: UpdateOptions, deps: Deps) => Promise<void> = runUpdate,
): Command {
  return parent
    .command("update")
    .description("Change an open lobby's variant or game config")
    .argument("<lobby>", "lobby id (lby_…)")
    .option("--variant <id>", "the coworld's variant")
    .option("--default-variant", "back to the league's (or the coworld's first) variant")
    .option("--config <json>", "game config overrides, a JSON object (replaces the lobby's)")
    .action(
      async (
        id: string,
        opts: { variant?: string; defaultVariant?: boolean; config?: string },
        cmd: Command,
      ) => {
        const lobbyId = await lobbyArg(id);
        if (opts.variant !== undefined && opts.defaultVariant)
          throw new CliError("give --variant or --default-variant, not both", EXIT.usage);
        const overrides =
          opts.config === undefined ? null : parseJsonObject(opts.config, "--config");
        const variant = opts.defaultVariant
          ? { variant_id: null }
          : opts.variant !== undefined
            ? { variant_id: opts.variant }
            : null;
        if (overrides === null && variant === null)
          throw new CliError(
            "nothing to change: give --variant, --default-variant or --config",
            EXIT.usage,
          );
        const options = { lobbyId, variant, overrides, json: wantsJson(cmd) };
        await run(options, await depsOf(factory, cmd));
      },
    );
}

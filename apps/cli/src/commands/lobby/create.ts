// gauntlet lobby create LEAGUE --seat … [--variant] [--config]
import type { Command } from "commander";

import { parseJsonObject, wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { parseSeat, SEAT_KINDS, writeLobby, type SeatInput } from "./shared.ts";

export interface CreateOptions {
  leagueId: string;
  /** In seat order. */
  seats: SeatInput[];
  variantId: string | null;
  overrides: Record<string, unknown> | null;
  json: boolean;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const created = await client.lobbies.create({
    league_id: options.leagueId,
    body: {
      num_players: options.seats.length,
      seats: options.seats,
      ...(options.variantId ? { variant_id: options.variantId } : {}),
      ...(options.overrides ? { game_config_overrides: options.overrides } : {}),
    },
  });
  writeLobby(io, created, options.json);
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Open a lobby in a league")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .requiredOption(
      "--seat <seat>",
      `a seat, once per seat in order: ${SEAT_KINDS} (PLAYER: a name or id)`,
      (v: string, all: string[] = []) => [...all, v],
    )
    .option("--variant <id>", "the coworld's variant")
    .option("--config <json>", "game config overrides, a JSON object")
    .action(
      async (
        league: string | undefined,
        opts: { seat: string[]; variant?: string; config?: string },
        cmd: Command,
      ) => {
        const deps = await depsOf(factory, cmd);
        const leagueId = await leagueOrCurrent(deps, league, "LEAGUE");
        const seats: SeatInput[] = [];
        for (const text of opts.seat)
          seats.push(await parseSeat(text, deps.client, () => Promise.resolve(leagueId)));
        const options = {
          leagueId,
          seats,
          variantId: opts.variant ?? null,
          overrides: opts.config === undefined ? null : parseJsonObject(opts.config, "--config"),
          json: wantsJson(cmd),
        };
        await run(options, deps);
      },
    );
}

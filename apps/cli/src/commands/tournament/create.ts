// gauntlet tournament create LEAGUE --name [--format] [--policy …] [--episodes] [--variant]
import type { Command } from "commander";

import type { TournamentFormat } from "@gauntlet/core";

import { checkUuid, parsePositiveInt, wantsJson } from "../../context.ts";
import { CliError, EXIT } from "../../exit-codes.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { leagueOrCurrent } from "../../names/resolve.ts";
import { writeJson } from "../../output.ts";
import { writeTournament } from "./show.ts";

const FORMATS: readonly TournamentFormat[] = [
  "single_elimination",
  "double_elimination",
  "round_robin",
];

const collect = (value: string, previous: string[]) => [...previous, value];

function checkFormat(value: string): TournamentFormat {
  const format = FORMATS.find((f) => f === value);
  if (!format)
    throw new CliError(
      `--format: expected one of ${FORMATS.join(", ")}, got '${value}'`,
      EXIT.usage,
    );
  return format;
}

export interface CreateOptions {
  leagueId: string;
  name: string;
  format: TournamentFormat;
  /** Entrants' policy version ids in seed order; empty: seeded from the standings. */
  policyVersionIds: string[];
  episodesPerMatch: number;
  variantId: string | null;
  json: boolean;
}

export async function runCreate(options: CreateOptions, { io, client }: Deps): Promise<void> {
  const created = await client.tournaments.create({
    league_id: options.leagueId,
    body: {
      name: options.name,
      format: options.format,
      episodes_per_match: options.episodesPerMatch,
      ...(options.policyVersionIds.length ? { policy_version_ids: options.policyVersionIds } : {}),
      ...(options.variantId ? { variant_id: options.variantId } : {}),
    },
  });
  if (options.json) return writeJson(io, created);
  writeTournament(io, created);
}

export function createCommand(
  parent: Command,
  factory: Factory,
  run: (options: CreateOptions, deps: Deps) => Promise<void> = runCreate,
): Command {
  return parent
    .command("create")
    .description("Create a tournament in draft (commissioner or admin)")
    .argument("[league]", "the league's name or id (default: the current league, `league use`)")
    .requiredOption("--name <name>", "its name")
    .option("--format <format>", `one of ${FORMATS.join(", ")}`, "single_elimination")
    .option(
      "--policy <version-id>",
      "an entrant's policy version id, in seed order (repeatable); none: seeded from the standings",
      collect,
      [],
    )
    .option("--episodes <n>", "episodes per match", "1")
    .option("--variant <id>", "the variant of the league's coworld to play")
    .action(
      async (
        league: string | undefined,
        opts: {
          name: string;
          format: string;
          policy: string[];
          episodes: string;
          variant?: string;
        },
        cmd: Command,
      ) => {
        const deps = await depsOf(factory, cmd);
        const leagueId = await leagueOrCurrent(deps, league, "LEAGUE");
        const format = checkFormat(opts.format);
        const episodesPerMatch = parsePositiveInt(opts.episodes, "--episodes");
        const policyVersionIds: string[] = [];
        for (const p of opts.policy) policyVersionIds.push(await checkUuid(p, "--policy"));
        const options = {
          leagueId,
          name: opts.name,
          format,
          policyVersionIds,
          episodesPerMatch,
          variantId: opts.variant ?? null,
          json: wantsJson(cmd),
        };
        await run(options, deps);
      },
    );
}

// gauntlet league list|show|create|update|lock|pause|trigger-round
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

type League = Awaited<ReturnType<Awaited<ReturnType<typeof clientOf>>["leagues"]["get"]>>;

function showLeague(league: League): void {
  printFields([
    ["id", league.id],
    ["name", league.name],
    ["game", `${league.game.name} (${league.game.id})`],
    ["public", league.public],
    [
      "rounds",
      league.rounds_paused_at ? `paused since ${shortTime(league.rounds_paused_at)}` : "running",
    ],
    ["created", shortTime(league.created_at)],
    ["description", league.description],
  ]);
}

export const league: CommandGroup = {
  register(program) {
    const group = program.command("league").description("Leagues: list, show, create and run them");

    group
      .command("list")
      .description("List the leagues you can see")
      .option("--game <game>", "only leagues of this game (game_…)")
      .option("--mine", "only leagues you commission")
      .action(async (opts: { game?: string; mine?: boolean }, cmd: Command) => {
        const client = await clientOf(cmd);
        const leagues = await client.leagues.list({
          ...(opts.game ? { game_id: await checkId("game", opts.game, "--game") } : {}),
          ...(opts.mine ? { mine: true } : {}),
        });
        if (wantsJson(cmd)) return printJson(leagues);
        printTable(
          ["id", "name", "game", "public", "rounds"],
          leagues.map((l) => [
            l.id,
            l.name,
            l.game.name,
            l.public ? "yes" : "no",
            l.rounds_paused_at ? "paused" : "running",
          ]),
          "no leagues",
        );
      });

    group
      .command("show")
      .description("Show one league")
      .argument("<league>", "league id (league_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const found = await client.leagues.get({
          league_id: await checkId("league", id, "LEAGUE"),
        });
        if (wantsJson(cmd)) return printJson(found);
        showLeague(found);
      });

    group
      .command("create")
      .description("Create a league (its commissioner is you)")
      .requiredOption("--name <name>", "the league's name")
      .requiredOption("--game <game>", "the game it plays (game_…)")
      .option("--division <name...>", "division names, top first (default: one division)")
      .option("--description <text>", "what the league is about")
      .option("--public", "anyone may see it")
      .addHelpText(
        "after",
        "\nExample:\n  $ gauntlet league create --name Spring --game game_… --division Premier Challenger --public",
      )
      .action(
        async (
          opts: {
            name: string;
            game: string;
            division?: string[];
            description?: string;
            public?: boolean;
          },
          cmd: Command,
        ) => {
          const game_id = await checkId("game", opts.game, "--game");
          const client = await clientOf(cmd);
          const created = await client.leagues.create({
            body: {
              name: opts.name,
              game_id,
              ...(opts.description !== undefined ? { description: opts.description } : {}),
              ...(opts.public ? { public: true } : {}),
              ...(opts.division
                ? { divisions: opts.division.map((name, level) => ({ name, level })) }
                : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(created);
          note(`created league ${created.name}`);
          showLeague(created);
        },
      );

    group
      .command("update")
      .description("Change a league's name, description or visibility")
      .argument("<league>", "league id (league_…)")
      .option("--name <name>", "new name")
      .option("--description <text>", "new description")
      .option("--public", "anyone may see it")
      .option("--no-public", "only members see it")
      .option("--hidden", "hide it from lists")
      .option("--no-hidden", "show it in lists")
      .action(
        async (
          id: string,
          opts: { name?: string; description?: string; public?: boolean; hidden?: boolean },
          cmd: Command,
        ) => {
          const league_id = await checkId("league", id, "LEAGUE");
          const body = {
            ...(opts.name !== undefined ? { name: opts.name } : {}),
            ...(opts.description !== undefined ? { description: opts.description } : {}),
            ...(opts.public !== undefined ? { public: opts.public } : {}),
            ...(opts.hidden !== undefined ? { hidden: opts.hidden } : {}),
          };
          if (Object.keys(body).length === 0)
            throw new CliError(
              "nothing to update: pass --name, --description, --public/--no-public or --hidden/--no-hidden",
              EXIT.usage,
            );
          const client = await clientOf(cmd);
          const updated = await client.leagues.update({ league_id, body });
          if (wantsJson(cmd)) return printJson(updated);
          showLeague(updated);
        },
      );

    group
      .command("lock")
      .description("Lock (or with --unlock, open) a league's submissions")
      .argument("<league>", "league id (league_…)")
      .option("--unlock", "open submissions again")
      .option("--game-version", "also pin (or with --unlock, unpin) the game version")
      .action(
        async (id: string, opts: { unlock?: boolean; gameVersion?: boolean }, cmd: Command) => {
          const league_id = await checkId("league", id, "LEAGUE");
          const locked = !opts.unlock;
          const client = await clientOf(cmd);
          const locks = await client.leagues.updateLocks({
            league_id,
            body: {
              submissions_locked: locked,
              ...(opts.gameVersion ? { game_version_locked: locked } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(locks);
          printFields(
            Object.entries(locks).map(([k, v]) => [
              k,
              typeof v === "object" ? JSON.stringify(v) : v,
            ]),
          );
        },
      );

    group
      .command("pause")
      .description("Pause (or with --resume, resume) a league's rounds")
      .argument("<league>", "league id (league_…)")
      .option("--resume", "resume rounds")
      .action(async (id: string, opts: { resume?: boolean }, cmd: Command) => {
        const league_id = await checkId("league", id, "LEAGUE");
        const client = await clientOf(cmd);
        const updated = await client.leagues.setRoundsPaused({
          league_id,
          body: { paused: !opts.resume },
        });
        if (wantsJson(cmd)) return printJson(updated);
        note(
          opts.resume ? `rounds of ${updated.name} resumed` : `rounds of ${updated.name} paused`,
        );
      });

    group
      .command("trigger-round")
      .description("Start a round now in every division (or one)")
      .argument("<league>", "league id (league_…)")
      .option("--division <division>", "only this division (div_…)")
      .action(async (id: string, opts: { division?: string }, cmd: Command) => {
        const league_id = await checkId("league", id, "LEAGUE");
        const body = opts.division
          ? { division_id: await checkId("division", opts.division, "--division") }
          : {};
        const client = await clientOf(cmd);
        const result = await client.leagues.triggerRound({ league_id, body });
        if (wantsJson(cmd)) return printJson(result);
        printTable(
          ["round", "division", "number", "status"],
          result.rounds.map((r) => [r.id, r.division.name, r.round_number, r.status]),
          "no round started",
        );
        for (const skip of result.skipped) note(`skipped ${skip.division_id}: ${skip.reason}`);
      });
  },
};

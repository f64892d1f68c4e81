// gauntlet tournament create|list|get|lock|start|advance|cancel
import type { Command } from "commander";

import type { Tournament, TournamentFormat } from "@gauntlet/core";

import { checkId, checkUuid, clientOf, parsePositiveInt, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { printFields, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

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

function printTournament(t: Tournament): void {
  const name = (seed: number | null) =>
    seed === null
      ? "—"
      : `#${seed} ${t.entrants.find((e) => e.seed === seed)?.display_name ?? "?"}`;
  const score = (value: number | null) => (value === null ? "" : Number(value.toFixed(3)));
  printFields([
    ["id", t.id],
    ["name", t.name],
    ["league", t.league_id],
    ["format", t.format],
    ["status", t.status],
    ["episodes per match", t.episodes_per_match],
    ["seeding", t.seeding],
    ["waves", t.waves.length],
    ["winner", t.winner ? name(t.winner.seed) : "—"],
    ...(t.error ? ([["error", t.error]] as const) : []),
  ]);
  if (t.matches.length === 0) {
    printTable(
      ["seed", "entrant", "policy version"],
      t.entrants.map((e) => [e.seed, e.display_name, e.policy_version_id]),
      "no entrants",
    );
    return;
  }
  // The bracket column only where there is more than one bracket (double elimination).
  const brackets = t.format === "double_elimination";
  const stage = (m: Tournament["matches"][number]) => (brackets ? [m.bracket, m.round] : [m.round]);
  printTable(
    [
      ...(brackets ? ["bracket"] : []),
      "round",
      "a",
      "b",
      "score a",
      "score b",
      "status",
      "winner",
      "decided by",
    ],
    t.matches.map((m) => [
      ...stage(m),
      name(m.seed_a),
      name(m.seed_b),
      score(m.score_a),
      score(m.score_b),
      m.status,
      m.winner_seed === null ? "" : name(m.winner_seed),
      m.decided_by ?? "",
    ]),
  );
}

function action(
  group: Command,
  verb: "lock" | "start" | "advance" | "cancel",
  description: string,
): void {
  group
    .command(verb)
    .description(description)
    .argument("<tournament>", "tournament id (tour_…)")
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const client = await clientOf(cmd);
      const result = await client.tournaments[verb]({
        tournament_id: await checkId("tournament", id, "TOURNAMENT"),
      });
      if (wantsJson(cmd)) return printJson(result);
      printTournament(result);
    });
}

export const tournament: CommandGroup = {
  register(program) {
    const group = program
      .command("tournament")
      .description("A league's tournaments: entrants, bracket, waves on the runners, the winner");

    group
      .command("create")
      .description("Create a tournament in draft (commissioner or admin)")
      .argument("<league>", "league id (league_…)")
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
          league: string,
          opts: {
            name: string;
            format: string;
            policy: string[];
            episodes: string;
            variant?: string;
          },
          cmd: Command,
        ) => {
          const leagueId = await checkId("league", league, "LEAGUE");
          const format = checkFormat(opts.format);
          const episodes = parsePositiveInt(opts.episodes, "--episodes");
          const policies: string[] = [];
          for (const p of opts.policy) policies.push(await checkUuid(p, "--policy"));
          const client = await clientOf(cmd);
          const created = await client.tournaments.create({
            league_id: leagueId,
            body: {
              name: opts.name,
              format,
              episodes_per_match: episodes,
              ...(policies.length ? { policy_version_ids: policies } : {}),
              ...(opts.variant ? { variant_id: opts.variant } : {}),
            },
          });
          if (wantsJson(cmd)) return printJson(created);
          printTournament(created);
        },
      );

    group
      .command("list")
      .description("List a league's tournaments, newest first")
      .argument("<league>", "league id (league_…)")
      .action(async (league: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const rows = await client.tournaments.list({
          league_id: await checkId("league", league, "LEAGUE"),
        });
        if (wantsJson(cmd)) return printJson(rows);
        printTable(
          ["id", "name", "format", "status", "entrants", "winner", "created"],
          rows.map((t) => [
            t.id,
            t.name,
            t.format,
            t.status,
            t.entrants.length,
            t.winner?.display_name ?? "",
            shortTime(t.created_at),
          ]),
          "no tournaments",
        );
      });

    group
      .command("get")
      .description("Show a tournament with its bracket and winner")
      .argument("<tournament>", "tournament id (tour_…)")
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const client = await clientOf(cmd);
        const t = await client.tournaments.get({
          tournament_id: await checkId("tournament", id, "TOURNAMENT"),
        });
        if (wantsJson(cmd)) return printJson(t);
        printTournament(t);
      });

    action(group, "lock", "Lock the entrants and draw the bracket (draft → locked)");
    action(group, "start", "Start playing: the first wave goes to the runners (locked → running)");
    action(
      group,
      "advance",
      "Decide an ended wave and start the next (running; otherwise automatic)",
    );
    action(group, "cancel", "Cancel a tournament that has not ended");
  },
};

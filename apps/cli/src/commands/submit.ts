// gauntlet submit POLICY[:vN] --league L, gauntlet submissions, gauntlet memberships
import type { Command } from "commander";

import { checkId, clientOf, wantsJson } from "../context.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { note, printJson, printTable, shortTime } from "../output.ts";
import type { CommandGroup } from "./group.ts";

type Client = Awaited<ReturnType<typeof clientOf>>;

/** POLICY is a version id (UUID), NAME (its newest version of yours) or NAME:vN. */
async function resolveVersion(client: Client, policy: string): Promise<string> {
  const { uuidPattern } = await import("@gauntlet/core");
  if (uuidPattern.test(policy)) return policy;
  const match = /^(.+?)(?::v?(\d+))?$/.exec(policy);
  const name = match?.[1] ?? policy;
  const wanted = match?.[2] === undefined ? null : Number(match[2]);
  const versions = await client.policyVersions.list({ name, mine: true });
  if (versions.length === 0)
    throw new CliError(
      `POLICY: you have no policy named '${name}' (see gauntlet policy list --mine)`,
      EXIT.notFound,
    );
  const chosen =
    wanted === null
      ? [...versions].sort((a, b) => b.version - a.version)[0]
      : versions.find((v) => v.version === wanted);
  if (!chosen)
    throw new CliError(
      `POLICY: ${name} has no version v${wanted} (it has ${versions.map((v) => `v${v.version}`).join(", ")})`,
      EXIT.notFound,
    );
  return chosen.id;
}

export const submit: CommandGroup = {
  register(program) {
    program
      .command("submit")
      .description("Submit a policy version to a league")
      .argument("<policy>", "NAME (your newest version), NAME:vN, or a policy version id")
      .requiredOption("--league <league>", "league id (league_…)")
      .option("--player <player>", "compete as this player of yours (ply_…)")
      .addHelpText(
        "after",
        "\nExamples:\n  $ gauntlet submit my-bot --league league_…\n  $ gauntlet submit my-bot:v3 --league league_… --player ply_…",
      )
      .action(
        async (policyArg: string, opts: { league: string; player?: string }, cmd: Command) => {
          const league_id = await checkId("league", opts.league, "--league");
          const player = opts.player
            ? { player_id: await checkId("player", opts.player, "--player") }
            : {};
          const client = await clientOf(cmd);
          const policy_version_id = await resolveVersion(client, policyArg);
          const submission = await client.leagueSubmissions.create({
            body: { league_id, policy_version_id, ...player },
          });
          if (wantsJson(cmd)) return printJson(submission);
          note(`submitted ${policyArg} to ${league_id}: ${submission.status}`);
        },
      );

    program
      .command("submissions")
      .description("League submissions (yours by default)")
      .option("--league <league>", "league id (league_…)")
      .option("--all", "everyone's you can see, not only yours")
      .action(async (opts: { league?: string; all?: boolean }, cmd: Command) => {
        const query = {
          ...(opts.league ? { league_id: await checkId("league", opts.league, "--league") } : {}),
          ...(opts.all ? {} : { mine: true }),
        };
        const client = await clientOf(cmd);
        const list = await client.leagueSubmissions.list(query);
        if (wantsJson(cmd)) return printJson(list);
        printTable(
          ["id", "league", "policy", "status", "created"],
          list.map((s) => [
            s.id,
            s.league.name,
            `${s.policy_version.name}:v${s.policy_version.version}`,
            s.status,
            shortTime(s.created_at),
          ]),
          "no submissions",
        );
      });

    program
      .command("memberships")
      .description("Which policies play in which division (yours by default)")
      .option("--league <league>", "league id (league_…)")
      .option("--division <division>", "division id (div_…)")
      .option("--all", "everyone's you can see, not only yours")
      .action(async (opts: { league?: string; division?: string; all?: boolean }, cmd: Command) => {
        const query = {
          ...(opts.league ? { league_id: await checkId("league", opts.league, "--league") } : {}),
          ...(opts.division
            ? { division_id: await checkId("division", opts.division, "--division") }
            : {}),
          ...(opts.all ? {} : { mine: true }),
        };
        const client = await clientOf(cmd);
        const list = await client.memberships.list(query);
        if (wantsJson(cmd)) return printJson(list);
        printTable(
          ["id", "division", "policy", "status", "champion"],
          list.map((m) => [
            m.id,
            m.division.name,
            `${m.policy_version.name}:v${m.policy_version.version}`,
            m.status,
            m.is_champion ? "yes" : "no",
          ]),
          "no memberships",
        );
      });
  },
};

// gauntlet submit POLICY[:vN] --league L [--player P]
import type { Command } from "commander";

import { wantsJson } from "../../context.ts";
import { depsOf, type Deps, type Factory } from "../../factory.ts";
import { resolveVersion } from "../../names/policy-version.ts";
import { leagueOrCurrent, playerIdOf } from "../../names/resolve.ts";
import { writeJson, writeNote } from "../../output.ts";

export interface SubmitOptions {
  /** As typed: a version id, NAME or NAME:vN (resolved against the server when run). */
  policy: string;
  leagueId: string;
  playerId: string | null;
  json: boolean;
}

export async function runSubmit(options: SubmitOptions, { io, client }: Deps): Promise<void> {
  const policy_version_id = await resolveVersion(client, options.policy);
  const submission = await client.leagueSubmissions.create({
    body: {
      league_id: options.leagueId,
      policy_version_id,
      ...(options.playerId ? { player_id: options.playerId } : {}),
    },
  });
  if (options.json) return writeJson(io, submission);
  // Who competes: the player the standings will show (a first submission makes one named after
  // the policy).
  const as = submission.player ? ` as ${submission.player.name}` : "";
  const to = `${submission.league.name} (${submission.league.id})${as}`;
  const division = await placedIn(client, submission.league_policy_membership_id, {
    league_id: submission.league.id,
    policy_version_id,
  });
  writeNote(
    io,
    division
      ? `submitted ${options.policy} to ${to}: placed in the ${division} division`
      : `submitted ${options.policy} to ${to}: ${submission.status}`,
  );
}

/** The division the submission's membership plays in; null before it is placed. */
async function placedIn(
  client: Deps["client"],
  membershipId: string | null,
  where: { league_id: string; policy_version_id: string },
): Promise<string | null> {
  if (membershipId === null) return null;
  const memberships = await client.memberships.list({ ...where, limit: 500 });
  return memberships.find((m) => m.id === membershipId)?.division.name ?? null;
}

export function submitCommand(
  parent: Command,
  factory: Factory,
  run: (options: SubmitOptions, deps: Deps) => Promise<void> = runSubmit,
): Command {
  return parent
    .command("submit")
    .description("Submit a policy version to a league")
    .argument("<policy>", "NAME (your newest version), NAME:vN, or a policy version id")
    .option(
      "--league <league>",
      "the league's name or id (default: the current league, `league use`)",
    )
    .option("--player <player>", "compete as this player of yours (its name or id)")
    .addHelpText(
      "after",
      "\nExamples:\n  $ gauntlet submit my-bot --league league_…\n  $ gauntlet submit my-bot:v3 --league league_… --player ply_…",
    )
    .action(async (policy: string, opts: { league?: string; player?: string }, cmd: Command) => {
      const deps = await depsOf(factory, cmd);
      const options = {
        policy,
        leagueId: await leagueOrCurrent(deps, opts.league, "--league"),
        playerId: opts.player ? await playerIdOf(deps.client, opts.player, "--player") : null,
        json: wantsJson(cmd),
      };
      await run(options, deps);
    });
}

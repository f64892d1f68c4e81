// The limits a submission meets before it is placed: the coworld manifest's `players_per_user`
// (how many of one user's players compete in the league at once) and the league's
// `submissions_per_day` (ladder settings; off by default). Both are read inside the submission's
// transaction, under the league's lock, so two submissions at once cannot both slip under them.
import type { Transaction } from "kysely";

import { CoworldManifest, type LadderSettings } from "@gauntlet/core";

import { parseJson } from "../shared/clock.ts";
import { invalidInput, ServiceError } from "../shared/errors.ts";
import type { Database, LeaguesTable } from "../store/schema.ts";
import { ACTIVE_STATUSES } from "./champions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Failures of the runner or the machine, not of the policy (the work queue retries these too). */
const NOBODYS_FAULT = new Set(["infrastructure", "runner_error"]);

/** 422 naming `players_per_user` when this player would be one more of its owner's than the coworld allows. */
export async function assertPlayersPerUser(
  trx: Transaction<Database>,
  league: LeaguesTable,
  owner: { userId: string; playerId: string },
): Promise<void> {
  const coworld = await trx
    .selectFrom("games as g")
    .innerJoin("coworlds as c", "c.id", "g.coworld_id")
    .select(["c.name", "c.manifest"])
    .where("g.id", "=", league.game_id)
    .executeTakeFirst();
  if (!coworld) return;
  const limit = CoworldManifest.parse(parseJson(coworld.manifest)).players_per_user;
  if (limit === undefined) return;
  const players = await trx
    .selectFrom("league_policy_memberships as m")
    .innerJoin("players as pl", "pl.id", "m.player_id")
    .select("m.player_id")
    .distinct()
    .where("m.league_id", "=", league.id)
    .where("m.status", "in", ACTIVE_STATUSES)
    .where("pl.owner_user_id", "=", owner.userId)
    .execute();
  const others = players.filter((p) => p.player_id !== owner.playerId).length;
  if (others >= limit)
    throw invalidInput(
      ["body", "player_id"],
      `${coworld.name}'s players_per_user is ${limit}: you already have ${others} player(s) competing in league ${league.id}`,
      "players_per_user",
      owner.playerId,
    );
}

/**
 * 429 naming `submissions_per_day` (with the seconds until the oldest counted submission leaves
 * the window) when the user has made that many in the last 24 hours. A submission whose episodes
 * all failed for infrastructure reasons (none the policy's doing) is not counted.
 */
export async function assertDailySubmissions(
  trx: Transaction<Database>,
  league: LeaguesTable,
  settings: LadderSettings,
  userId: string,
  now: Date,
  setRetryAfter: (seconds: number) => void,
): Promise<void> {
  const limit = settings.submissions_per_day;
  if (limit === null) return;
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const recent = await trx
    .selectFrom("league_submissions")
    .select(["policy_version_id", "created_at"])
    .where("league_id", "=", league.id)
    .where("submitted_by_user_id", "=", userId)
    .where("status", "=", "placed")
    .where("created_at", ">", since)
    .orderBy("created_at")
    .execute();
  if (recent.length < limit) return;
  const counted: string[] = [];
  for (const submission of recent)
    if (!(await onlyInfrastructureFailures(trx, league.id, submission)))
      counted.push(submission.created_at);
  const oldest = counted[0];
  if (counted.length < limit || oldest === undefined) return;
  const seconds = Math.max(
    1,
    Math.ceil((new Date(oldest).getTime() + DAY_MS - now.getTime()) / 1000),
  );
  setRetryAfter(seconds);
  throw new ServiceError(
    429,
    "submissions_per_day",
    `League ${league.id} takes ${limit} submission(s) a day from one user (submissions_per_day); you have made ${counted.length} in the last 24 hours. Try again in ${seconds} s.`,
    { limit: "submissions_per_day", submissions_per_day: limit, retry_after_seconds: seconds },
  );
}

/** The submission's version has played in the league since, and every such episode failed for nobody's fault. */
async function onlyInfrastructureFailures(
  trx: Transaction<Database>,
  leagueId: string,
  submission: { policy_version_id: string; created_at: string },
): Promise<boolean> {
  const episodes = await trx
    .selectFrom("episode_requests as e")
    .innerJoin("episode_participants as p", "p.episode_request_id", "e.id")
    .select(["e.status", "e.error_type"])
    .where("e.league_id", "=", leagueId)
    .where("p.policy_version_id", "=", submission.policy_version_id)
    .where("e.created_at", ">=", submission.created_at)
    .execute();
  return (
    episodes.length > 0 &&
    episodes.every((e) => e.status === "failed" && NOBODYS_FAULT.has(e.error_type ?? ""))
  );
}

// League submissions (docs/api.md, "League play in short"): a policy version enters a league as a
// membership of a player. Placement happens at once: `placed` with its membership, or `rejected`
// with the reason.
import type { Kysely, Transaction } from "kysely";

import { jsonBytes, newId, type BodyOf, type LeagueSubmission, type QueryOf } from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { canSeeLeague, isCommissioner, visibleLeagueIds } from "../access/leagues.ts";
import { ownsOrAdmin } from "../access/ownership.ts";
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents, type Emit } from "../events/record.ts";
import { defaultPlayer } from "../identity/players.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, forbidden, invalidInput } from "../shared/errors.ts";
import type {
  Database,
  DivisionsTable,
  LeaguesTable,
  LeagueSubmissionsTable,
} from "../store/schema.ts";
import {
  ACTIVE_STATUSES,
  currentChampion,
  makeChampion,
  moveActiveMemberships,
} from "./champions.ts";
import { ladderOrDefault } from "./ladder.ts";
import { lockLeague } from "./league-lock.ts";
import { writeRating } from "./rating-rows.ts";
import { embeddedRefs, must, playerRefs, policyVersionRefs } from "./refs.ts";
import { refreshStandings } from "./standings-write.ts";
import { assertDailySubmissions, assertPlayersPerUser } from "./submission-limits.ts";

type SubmissionInput = BodyOf<"createLeagueSubmission">;

/**
 * A submission's preferences, as JSON, at most: every live membership's are shown to the league's
 * commissioner in each schedule_rounds_request and round_start (the built-in's run inside a
 * round's start and settle, under the league lock), so megabytes here would slow every round.
 */
export const SUBMISSION_PREFERENCES_MAX_BYTES = 16 * 1024;

function lockedError(league: LeaguesTable) {
  return conflict(
    `League ${league.id} does not take submissions now: its commissioner has locked them.`,
    "submissions_locked",
    { league_id: league.id },
  );
}

/**
 * Where a new member plays: the commissioner's seed, else the player's current division, else the
 * lowest competition division.
 */
async function chooseDivision(
  trx: Transaction<Database>,
  league: LeaguesTable,
  playerId: string,
  seed: string | undefined,
): Promise<DivisionsTable> {
  const divisions = await trx
    .selectFrom("divisions")
    .selectAll()
    .where("league_id", "=", league.id)
    .where("archived_at", "is", null)
    .where("type", "=", "competition")
    .execute();
  if (seed !== undefined) {
    const seeded = divisions.find((d) => d.id === seed);
    if (!seeded)
      throw invalidInput(
        ["body", "preferences", "division_id"],
        `division ${seed} is not an open competition division of league ${league.id}`,
        "value_error",
        seed,
      );
    return seeded;
  }
  const rating = await trx
    .selectFrom("ladder_ratings")
    .select(["division_id"])
    .where("league_id", "=", league.id)
    .where("player_id", "=", playerId)
    .executeTakeFirst();
  const current = rating ? divisions.find((d) => d.id === rating.division_id) : undefined;
  if (current) return current;
  const lowest = [...divisions].sort(
    (a, b) => b.level - a.level || (a.created_at < b.created_at ? -1 : 1),
  )[0];
  if (!lowest)
    throw conflict(`League ${league.id} has no competition division to play in.`, "no_division", {
      league_id: league.id,
    });
  return lowest;
}

interface Placed {
  status: "placed" | "rejected";
  membershipId: string | null;
  notes: string | null;
}

async function place(
  trx: Transaction<Database>,
  emit: Emit,
  league: LeaguesTable,
  input: SubmissionInput & { player_id: string },
  policy: { policy_id: string },
  submissionId: string,
): Promise<Placed> {
  const existing = await trx
    .selectFrom("league_policy_memberships")
    .select(["id"])
    .where("league_id", "=", league.id)
    .where("player_id", "=", input.player_id)
    .where("policy_version_id", "=", input.policy_version_id)
    .where("status", "in", ACTIVE_STATUSES)
    .executeTakeFirst();
  if (existing)
    return {
      status: "rejected",
      membershipId: existing.id,
      notes: `This policy version already competes for the player as membership ${existing.id}.`,
    };

  const division = await chooseDivision(
    trx,
    league,
    input.player_id,
    input.preferences?.division_id,
  );
  const now = nowIso();
  const membershipId = newId("membership");
  const champion = await currentChampion(trx, league.id, input.player_id);
  let becomesChampion = champion === undefined || input.auto_champion === "always";
  if (champion && input.auto_champion === "lineage") {
    const current = await trx
      .selectFrom("policy_versions")
      .select(["policy_id"])
      .where("id", "=", champion.policy_version_id)
      .executeTakeFirst();
    becomesChampion = current?.policy_id === policy.policy_id;
  }
  await trx
    .insertInto("league_policy_memberships")
    .values({
      id: membershipId,
      league_id: league.id,
      division_id: division.id,
      policy_version_id: input.policy_version_id,
      player_id: input.player_id,
      status: "competing",
      substatus: "active",
      is_champion: 0,
      start_time: now,
      end_time: null,
      created_at: now,
      submission_id: submissionId,
      retired_reason: null,
    })
    .execute();
  if (becomesChampion) await makeChampion(trx, league.id, input.player_id, membershipId);

  // The player's rating row: where they play now (a seed moves them, memberships and all).
  const rating = await trx
    .selectFrom("ladder_ratings")
    .selectAll()
    .where("league_id", "=", league.id)
    .where("player_id", "=", input.player_id)
    .executeTakeFirst();
  const movedFrom = rating && rating.division_id !== division.id ? rating.division_id : null;
  await writeRating(
    trx,
    { league_id: league.id, player_id: input.player_id },
    rating !== undefined,
    { division_id: division.id, active: 1, updated_at: now },
    {
      division_id: division.id,
      state: null,
      rounds_played: 0,
      recent_rounds: "[]",
      active: 1,
      updated_at: now,
    },
  );
  await moveActiveMemberships(trx, league.id, input.player_id, division.id);

  const [players, versions] = await Promise.all([
    playerRefs(trx, [input.player_id]),
    policyVersionRefs(trx, [input.policy_version_id]),
  ]);
  const player = must(players, input.player_id, "player");
  const version = must(versions, input.policy_version_id, "policy version");
  emit({
    type: "submission_placed",
    refs: { league: league, division: division, player, policy_version: version },
    headline: `${player.name} entered ${division.name} with ${version.name} v${version.version}`,
    payload: {
      submission_id: submissionId,
      membership_id: membershipId,
      is_champion: becomesChampion,
    },
  });
  if (becomesChampion && champion) {
    emit({
      type: "champion_changed",
      refs: { league: league, division: division, player, policy_version: version },
      headline: `${player.name} now plays ${version.name} v${version.version}`,
      payload: { membership_id: membershipId, previous_membership_id: champion.id },
    });
  }
  const settings = ladderOrDefault(league);
  await refreshStandings(trx, league, settings, division, null, emit);
  if (movedFrom) {
    const old = await trx
      .selectFrom("divisions")
      .selectAll()
      .where("id", "=", movedFrom)
      .executeTakeFirst();
    if (old) await refreshStandings(trx, league, settings, old, null, emit);
  }
  return { status: "placed", membershipId, notes: null };
}

export async function createSubmission(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  input: SubmissionInput,
  /** Where a refusal for the daily limit says when to come back (the route's Retry-After). */
  setRetryAfter: (seconds: number) => void = () => undefined,
): Promise<LeagueSubmission> {
  const league = await db
    .selectFrom("leagues")
    .selectAll()
    .where("id", "=", input.league_id)
    .executeTakeFirst();
  if (!league || !canSeeLeague(identity, league))
    throw invalidInput(
      ["body", "league_id"],
      `league ${input.league_id} does not exist`,
      "value_error",
      input.league_id,
    );
  if (league.disabled_at !== null)
    throw conflict(`League ${league.id} is disabled.`, "league_disabled", { league_id: league.id });
  if (league.submissions_locked === 1) throw lockedError(league);

  const version = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "pv.policy_id", "pv.player_id", "p.owner_user_id", "p.name as policy_name"])
    .where("pv.id", "=", input.policy_version_id)
    .executeTakeFirst();
  if (!version || !ownsOrAdmin(identity, version.owner_user_id)) {
    throw invalidInput(
      ["body", "policy_version_id"],
      `policy version ${input.policy_version_id} does not exist or is not yours`,
      "value_error",
      input.policy_version_id,
    );
  }

  // Without a player_id the version's owner competes as their default player, made for them if
  // need be (named after this policy): the hosted service's clients (coworld submit) never send one.
  const playerId =
    input.player_id ??
    (identity.kind === "player" ? identity.subjectId : version.player_id) ??
    (await defaultPlayer(db, version.owner_user_id, version.policy_name)).id;
  const player = await db
    .selectFrom("players")
    .select(["id", "owner_user_id"])
    .where("id", "=", playerId)
    .executeTakeFirst();
  const mayAct =
    player &&
    ownsOrAdmin(identity, player.owner_user_id) &&
    (identity.kind !== "player" || identity.subjectId === playerId);
  if (!mayAct)
    throw invalidInput(
      ["body", "player_id"],
      `player ${playerId} does not exist or is not yours`,
      "value_error",
      playerId,
    );
  const preferenceBytes = jsonBytes(input.preferences ?? {});
  if (preferenceBytes > SUBMISSION_PREFERENCES_MAX_BYTES)
    throw invalidInput(
      ["body", "preferences"],
      `preferences are ${preferenceBytes} bytes of JSON, past the limit of ${SUBMISSION_PREFERENCES_MAX_BYTES}`,
    );
  if (input.preferences?.division_id !== undefined && !isCommissioner(identity, league)) {
    throw forbidden(
      "Only the league's commissioner seeds a player into a division (preferences.division_id).",
    );
  }

  const submissionId = newId("submission");
  const row = await withEvents(db, bus, async (trx, emit) => {
    const locked = await lockLeague(trx, league.id);
    if (!locked)
      throw invalidInput(
        ["body", "league_id"],
        `league ${league.id} does not exist`,
        "value_error",
        league.id,
      );
    if (locked.submissions_locked === 1) throw lockedError(locked);
    await assertDailySubmissions(
      trx,
      locked,
      ladderOrDefault(locked),
      identity.userId,
      new Date(),
      setRetryAfter,
    );
    await assertPlayersPerUser(trx, locked, { userId: player.owner_user_id, playerId });
    const placed = await place(
      trx,
      emit,
      locked,
      { ...input, player_id: playerId },
      version,
      submissionId,
    );
    const now = nowIso();
    const submission: LeagueSubmissionsTable = {
      id: submissionId,
      league_id: league.id,
      policy_version_id: input.policy_version_id,
      player_id: playerId,
      submitted_by_user_id: identity.userId,
      status: placed.status,
      notes: placed.notes,
      auto_champion: input.auto_champion,
      preferences: JSON.stringify(input.preferences ?? {}),
      membership_id: placed.membershipId,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto("league_submissions").values(submission).execute();
    if (placed.status === "rejected") {
      emit({
        type: "submission_rejected",
        audience: "owner",
        userId: identity.userId,
        refs: { league: locked },
        headline: `A submission to ${locked.name} was not placed`,
        summary: placed.notes ?? "",
        payload: { submission_id: submissionId },
      });
    }
    return submission;
  });
  const [view] = await submissionViews(db, [row]);
  if (!view) throw new Error("unreachable: one row gives one view");
  return view;
}

export async function submissionViews(
  db: Kysely<Database>,
  rows: readonly LeagueSubmissionsTable[],
): Promise<LeagueSubmission[]> {
  const { leagues, players, versions } = await embeddedRefs(db, rows);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    league_policy_membership_id: r.membership_id,
    notes: r.notes,
    league: must(leagues, r.league_id, "league"),
    policy_version: must(versions, r.policy_version_id, "policy version"),
    player: r.player_id ? (players.get(r.player_id) ?? null) : null,
    auto_champion: r.auto_champion,
    preferences: parseJson<Record<string, unknown>>(r.preferences),
    submitted_by_user_id: r.submitted_by_user_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

type SubmissionFilter = QueryOf<"listLeagueSubmissions">;

export async function listSubmissions(
  db: Kysely<Database>,
  identity: Identity,
  filter: SubmissionFilter,
): Promise<LeagueSubmission[]> {
  let q = db.selectFrom("league_submissions").selectAll();
  if (filter.league_id) q = q.where("league_id", "=", filter.league_id);
  if (filter.player_id) q = q.where("player_id", "=", filter.player_id);
  if (filter.policy_version_id) q = q.where("policy_version_id", "=", filter.policy_version_id);
  if (filter.mine) {
    if (!isAuthenticated(identity)) return [];
    q = q.where("submitted_by_user_id", "=", identity.userId);
  }
  if (!actsAsAdmin(identity)) q = q.where("league_id", "in", visibleLeagueIds(db, identity));
  const rows = await q
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit)
    .execute();
  return submissionViews(db, rows);
}

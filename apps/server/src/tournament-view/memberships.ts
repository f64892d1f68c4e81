// Policy versions in leagues as cogames sees them: a season's policies with their divisions and
// episode counts, a version's membership history, the caller's versions' leagues, and a
// submission (through league submissions, under their rules).
import type { Kysely } from "kysely";

import type {
  LeaguePolicyMembership,
  QueryOf,
  ResponseOf,
  SeasonPolicySummary,
} from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { visibleDivisionIds } from "../access/leagues.ts";
import { isAuthenticated, type AuthenticatedIdentity, type Identity } from "../auth/identity.ts";
import type { EventBus } from "../events/bus.ts";
import { ACTIVE_STATUSES } from "../leagues/champions.ts";
import { listMemberships } from "../leagues/memberships.ts";
import { createSubmission } from "../leagues/submissions.ts";
import { conflict } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { refOf, seasonLeague, seasonPolicyRefs } from "./refs.ts";

const active: readonly string[] = ACTIVE_STATUSES;

export async function seasonPolicies(
  db: Kysely<Database>,
  identity: Identity,
  ref: string,
  query: QueryOf<"listSeasonPolicies">,
): Promise<SeasonPolicySummary[]> {
  const league = await seasonLeague(db, identity, ref);
  let q = db
    .selectFrom("league_policy_memberships as m")
    .innerJoin("divisions as d", "d.id", "m.division_id")
    .innerJoin("policy_versions as pv", "pv.id", "m.policy_version_id")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["m.policy_version_id", "m.division_id", "m.status", "m.created_at", "d.name"])
    .where("m.league_id", "=", league.id);
  if (!actsAsAdmin(identity)) q = q.where("m.division_id", "in", visibleDivisionIds(db, identity));
  if (query.mine) {
    if (!isAuthenticated(identity)) return [];
    q = q.where("p.owner_user_id", "=", identity.userId);
  }
  const members = await q.orderBy("m.created_at").orderBy("m.id").execute();
  if (members.length === 0) return [];
  const versionIds = [...new Set(members.map((m) => m.policy_version_id))];
  const counts = await db
    .selectFrom("episode_participants as ep")
    .innerJoin("episode_requests as er", "er.id", "ep.episode_request_id")
    .select([
      "ep.policy_version_id",
      "er.division_id",
      "er.status",
      (eb) => eb.fn.count<number | string>("er.id").distinct().as("n"),
    ])
    .where("er.league_id", "=", league.id)
    .where("ep.policy_version_id", "in", versionIds)
    .groupBy(["ep.policy_version_id", "er.division_id", "er.status"])
    .execute();
  const count = (pv: string, division: string, statuses: readonly string[]) =>
    counts
      .filter(
        (c) =>
          c.policy_version_id === pv && c.division_id === division && statuses.includes(c.status),
      )
      .reduce((sum, c) => sum + Number(c.n), 0);
  const refs = await seasonPolicyRefs(db, versionIds);
  return versionIds.map((pv) => {
    const own = members.filter((m) => m.policy_version_id === pv);
    const divisions = [...new Set(own.map((m) => m.division_id))];
    return {
      policy: refOf(refs, pv),
      pools: divisions.map((division) => {
        const inDivision = own.filter((m) => m.division_id === division);
        return {
          pool_name: inDivision[0]?.name ?? "",
          active: inDivision.some((m) => active.includes(m.status)),
          completed: count(pv, division, ["completed"]),
          failed: count(pv, division, ["failed", "cancelled"]),
          pending: count(pv, division, ["pending", "submitted", "running"]),
        };
      }),
      entered_at: own[0]?.created_at ?? "",
    };
  });
}

/** Each membership as its entry (`added`) and, once it ended, its exit (`retired`, `disqualified`). */
function historyOf(m: LeaguePolicyMembership): ResponseOf<"listPolicySeasonMemberships"> {
  const added = {
    season_name: m.league.id,
    season_version: 1,
    pool_name: m.division.name,
    action: "added" as const,
    notes: null,
    created_at: m.created_at,
  };
  if (m.status !== "retired" && m.status !== "disqualified") return [added];
  return [
    added,
    {
      ...added,
      action: m.status,
      notes: m.retired_reason,
      created_at: m.end_time ?? m.created_at,
    },
  ];
}

export async function policyMemberships(
  db: Kysely<Database>,
  identity: Identity,
  policyVersionId: string,
): Promise<ResponseOf<"listPolicySeasonMemberships">> {
  const memberships = await listMemberships(db, identity, {
    policy_version_id: policyVersionId,
    limit: 500,
  });
  return memberships
    .flatMap(historyOf)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

export async function myMemberships(
  db: Kysely<Database>,
  identity: Identity,
): Promise<Record<string, string[]>> {
  const memberships = await listMemberships(db, identity, { mine: true, limit: 500 });
  const out: Record<string, string[]> = {};
  for (const m of memberships) {
    const leagues = out[m.policy_version.id] ?? [];
    if (!leagues.includes(m.league.id)) leagues.push(m.league.id);
    out[m.policy_version.id] = leagues;
  }
  return out;
}

export async function submitToSeason(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  ref: string,
  policyVersionId: string,
): Promise<ResponseOf<"submitToSeason">> {
  const league = await seasonLeague(db, identity, ref);
  const submission = await createSubmission(db, bus, identity, {
    league_id: league.id,
    policy_version_id: policyVersionId,
    auto_champion: "always",
  });
  if (submission.status === "rejected" || submission.league_policy_membership_id === null)
    throw conflict(submission.notes ?? "The submission was not placed.", "submission_rejected", {
      submission_id: submission.id,
    });
  const membership = await db
    .selectFrom("league_policy_memberships as m")
    .innerJoin("divisions as d", "d.id", "m.division_id")
    .select("d.name")
    .where("m.id", "=", submission.league_policy_membership_id)
    .executeTakeFirst();
  return { pools: membership ? [membership.name] : [] };
}

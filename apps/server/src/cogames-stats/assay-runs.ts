// cogames' assay runs: one of the caller's policy versions evaluated on missions. Each mission
// is an experience request on the coworld the version plays (its variant when the mission names
// one), the version in every seat; the run counts their episodes and, once they have all ended,
// finalize settles it. Results are per mission, of the version's completed episodes.
import { randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import {
  CoworldManifest,
  rosterBounds,
  type AssayResults,
  type AssayRun,
  type MissionMetrics,
} from "@gauntlet/core";

import { ownsOrAdmin } from "../access/ownership.ts";
import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { episodeStats } from "../episodes/episode-files.ts";
import { coworldsOfVersions } from "../evaluations/bulk-upload.ts";
import { createExperienceRequest } from "../evaluations/experience-requests.ts";
import type { EventBus } from "../events/bus.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { conflict, invalidInput, notFound } from "../shared/errors.ts";
import type { AssayRunsTable, Database } from "../store/schema.ts";

interface MissionRef {
  mission_name: string;
  experience_request_id: string;
}

const missionsOf = (row: AssayRunsTable) => parseJson<MissionRef[]>(row.missions);

/** The episodes of a run's experience requests, counted by state. */
async function counts(db: Kysely<Database>, row: AssayRunsTable) {
  const ids = missionsOf(row).map((m) => m.experience_request_id);
  const byStatus = await db
    .selectFrom("episode_requests")
    .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("experience_request_id", "in", ids)
    .groupBy("status")
    .execute();
  const n = (...statuses: string[]) =>
    byStatus.filter((r) => statuses.includes(r.status)).reduce((s, r) => s + Number(r.n), 0);
  return {
    total: byStatus.reduce((s, r) => s + Number(r.n), 0),
    completed: n("completed"),
    failed: n("failed", "cancelled"),
  };
}

async function toRun(db: Kysely<Database>, row: AssayRunsTable): Promise<AssayRun> {
  const c = await counts(db, row);
  return {
    id: row.id,
    policy_version_id: row.policy_version_id,
    user_id: row.user_id,
    name: row.name,
    compat_version: row.compat_version,
    status: row.status,
    total_jobs: c.total,
    completed_jobs: c.completed,
    failed_jobs: c.failed,
    error: row.error,
    created_at: row.created_at,
    started_at: row.created_at,
    completed_at: row.completed_at,
    experience_request_ids: missionsOf(row).map((m) => m.experience_request_id),
  };
}

async function ownRun(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<AssayRunsTable> {
  const row = await db.selectFrom("assay_runs").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || !ownsOrAdmin(identity, row.user_id)) throw notFound("assay run", id);
  return row;
}

export async function createAssayRun(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  body: {
    policy_version_id: string;
    missions: { mission_name: string; num_episodes: number }[];
    name?: string | undefined;
    compat_version?: string | undefined;
  },
): Promise<AssayRun> {
  const version = await db
    .selectFrom("policy_versions as pv")
    .innerJoin("policies as p", "p.id", "pv.policy_id")
    .select(["pv.id", "p.owner_user_id"])
    .where("pv.id", "=", body.policy_version_id)
    .executeTakeFirst();
  if (!version || !ownsOrAdmin(identity, version.owner_user_id))
    throw invalidInput(
      ["body", "policy_version_id"],
      `policy version ${body.policy_version_id} is not one of yours`,
      "value_error",
      body.policy_version_id,
    );
  if (body.name !== undefined) {
    const active = await db
      .selectFrom("assay_runs")
      .select("id")
      .where("user_id", "=", identity.userId)
      .where("policy_version_id", "=", body.policy_version_id)
      .where("name", "=", body.name)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (active)
      throw conflict(`assay run ${active.id} named ${body.name} is still pending for this version`);
  }
  const coworlds = [
    ...((await coworldsOfVersions(db, [body.policy_version_id])).get(body.policy_version_id) ?? []),
  ];
  const [coworldId] = coworlds;
  if (coworlds.length !== 1 || coworldId === undefined)
    throw invalidInput(
      ["body", "policy_version_id"],
      coworlds.length === 0
        ? "the policy version plays no coworld yet (no league membership or episode): submit it to a league first"
        : `the policy version plays ${coworlds.length} coworlds; an assay run needs exactly one`,
      "value_error",
      body.policy_version_id,
    );
  const coworld = await db
    .selectFrom("coworlds")
    .select("manifest")
    .where("id", "=", coworldId)
    .executeTakeFirstOrThrow();
  const manifest = CoworldManifest.parse(parseJson(coworld.manifest));
  const seats = rosterBounds(manifest).min;
  const id = randomUUID();
  const missions: MissionRef[] = [];
  for (const mission of body.missions) {
    const variant = manifest.variants.find((v) => v.id === mission.mission_name);
    const request = await createExperienceRequest(db, bus, identity, {
      coworld_id: coworldId,
      ...(variant ? { variant_id: variant.id } : {}),
      roster: Array.from({ length: seats }, (_, slot) => ({
        player: { policy_ref: body.policy_version_id },
        slot,
      })),
      num_episodes: mission.num_episodes,
      notes: `assay run ${id}: mission ${mission.mission_name}`,
    });
    missions.push({ mission_name: mission.mission_name, experience_request_id: request.id });
  }
  const row: AssayRunsTable = {
    id,
    user_id: identity.userId,
    policy_version_id: body.policy_version_id,
    name: body.name ?? null,
    compat_version: body.compat_version ?? null,
    missions: JSON.stringify(missions),
    status: "pending",
    error: null,
    created_at: nowIso(),
    completed_at: null,
  };
  await db.insertInto("assay_runs").values(row).execute();
  return toRun(db, row);
}

export async function listAssayRuns(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  policyVersionId: string | undefined,
): Promise<AssayRun[]> {
  let q = db.selectFrom("assay_runs").selectAll().where("user_id", "=", identity.userId);
  if (policyVersionId) q = q.where("policy_version_id", "=", policyVersionId);
  const rows = await q.orderBy("created_at", "desc").orderBy("id").limit(200).execute();
  return Promise.all(rows.map((row) => toRun(db, row)));
}

export async function getAssayRun(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<AssayRun> {
  return toRun(db, await ownRun(db, identity, id));
}

export async function finalizeAssayRun(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<AssayRun> {
  const row = await ownRun(db, identity, id);
  if (row.status !== "pending") return toRun(db, row);
  const c = await counts(db, row);
  if (c.completed + c.failed < c.total)
    throw conflict(
      `assay run ${id} has ${c.total - c.completed - c.failed} of ${c.total} episodes still to play`,
    );
  const status = c.completed > 0 ? "completed" : "failed";
  const error = status === "failed" ? `all ${c.total} episodes failed` : null;
  await db
    .updateTable("assay_runs")
    .set({ status, error, completed_at: nowIso() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
  return toRun(db, await ownRun(db, identity, id));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/** A mission's metrics over its ended episodes (the version's reward is its seats' mean). */
async function missionMetrics(db: Kysely<Database>, xreqId: string): Promise<MissionMetrics> {
  const rows = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("experience_request_id", "=", xreqId)
    .where("status", "in", ["completed", "failed"])
    .execute();
  const rewards: number[] = [];
  const move: number[] = [];
  const failed: number[] = [];
  const stuck: number[] = [];
  for (const row of rows.filter((r) => r.status === "completed" && r.results)) {
    const stats = await episodeStats(db, row);
    rewards.push(mean(stats.policy_stats.map((p) => p.avg_reward ?? 0)));
    const agents: { metrics: Record<string, number> }[] = stats.policy_stats.flatMap(
      (p) => p.agents,
    );
    // cogames' agent metric names; an episode run here reports none, so they count as 0.
    const perAgent = (name: string) => mean(agents.map((a) => a.metrics[name] ?? 0));
    move.push(perAgent("action.move.success"));
    failed.push(perAgent("action.failed"));
    stuck.push(perAgent("status.max_steps_without_motion"));
  }
  const avg = mean(rewards);
  return {
    reward_variance: mean(rewards.map((r) => (r - avg) ** 2)),
    non_zero_episode_pct: rewards.length
      ? (100 * rewards.filter((r) => r !== 0).length) / rewards.length
      : 0,
    timeout_rate: rows.length
      ? rows.filter((r) => r.error_type === "timeout").length / rows.length
      : 0,
    mean_move_success: mean(move),
    mean_action_failed: mean(failed),
    mean_stuck_steps: mean(stuck),
  };
}

export async function getAssayResults(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  id: string,
): Promise<AssayResults> {
  const row = await ownRun(db, identity, id);
  const missions: Record<string, MissionMetrics> = {};
  for (const m of missionsOf(row))
    missions[m.mission_name] = await missionMetrics(db, m.experience_request_id);
  // The hosted service's axis scores are its own formula, not public: none are made up here.
  return { status: row.status, missions, axes: [] };
}

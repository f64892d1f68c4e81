// Experience requests: creation (every episode queued as a job on the work queue, as rounds
// do), reads with counts by episode state, cancellation, and settling when the last episode
// ends. Counts are read from the episodes themselves, so they always add up to episode_count.
import type { Kysely, Transaction } from "kysely";

import {
  newId,
  type CreateExperienceRequest,
  type EpisodeRequest,
  type ExperienceRequestDetail,
  type ExperienceRequestRow,
  type ExperienceRequestStatus,
} from "@gauntlet/core";

import { actsAsAdmin } from "../access/admin.ts";
import { canSeeEvaluation } from "../access/evaluations.ts";
import type { AuthenticatedIdentity, Identity } from "../auth/identity.ts";
import { episodeViews } from "../episodes/episode-reads.ts";
import { createEpisode, touchEpisode } from "../episodes/episodes.ts";
import type { ShareClass } from "../episodes/queue-shares.ts";
import type { EventBus } from "../events/bus.ts";
import { withEvents, type Emit } from "../events/record.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, notFound } from "../shared/errors.ts";
import type { CompetitionEventsTable, Database, ExperienceRequestsTable } from "../store/schema.ts";
import { resolveRequest, type Seat } from "./roster.ts";
import { planState } from "./state-request.ts";

const FINAL_EPISODE: EpisodeRequest["status"][] = ["completed", "failed", "cancelled"];
const FINAL_REQUEST: ExperienceRequestStatus[] = ["completed", "failed", "cancelled"];

/** The event types that say an experience request has ended (other features wait on these). */
export const EXPERIENCE_REQUEST_ENDED = [
  "experience_request_completed",
  "experience_request_failed",
  "experience_request_cancelled",
] as const;

type Counts = Pick<
  ExperienceRequestRow,
  | "pending_count"
  | "submitted_count"
  | "running_count"
  | "completed_count"
  | "failed_count"
  | "cancelled_count"
>;

const ZERO: Counts = {
  pending_count: 0,
  submitted_count: 0,
  running_count: 0,
  completed_count: 0,
  failed_count: 0,
  cancelled_count: 0,
};

async function countsOf(db: Kysely<Database>, ids: string[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("episode_requests")
    .select((eb) => ["experience_request_id", "status", eb.fn.countAll().as("n")])
    .where("experience_request_id", "in", ids)
    .groupBy(["experience_request_id", "status"])
    .execute();
  for (const row of rows) {
    if (row.experience_request_id === null) continue;
    const counts = { ...(out.get(row.experience_request_id) ?? ZERO) };
    const key = `${row.status}_count`;
    if (key in counts) counts[key as keyof Counts] += Number(row.n);
    out.set(row.experience_request_id, counts);
  }
  return out;
}

/** Running is read from the episodes: the stored status moves only when the request ends. */
function statusOf(row: ExperienceRequestsTable, counts: Counts): ExperienceRequestStatus {
  if (FINAL_REQUEST.includes(row.status)) return row.status;
  const moved =
    counts.running_count + counts.completed_count + counts.failed_count + counts.cancelled_count;
  return moved > 0 ? "running" : "submitted";
}

async function rowViews(
  db: Kysely<Database>,
  rows: ExperienceRequestsTable[],
): Promise<ExperienceRequestRow[]> {
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  const coworldIds = [...new Set(rows.map((r) => r.coworld_id))];
  const coworlds = new Map(
    coworldIds.length
      ? (
          await db
            .selectFrom("coworlds")
            .select(["id", "name", "version"])
            .where("id", "in", coworldIds)
            .execute()
        ).map((c) => [c.id, c])
      : [],
  );
  return rows.map((row) => {
    const c = counts.get(row.id) ?? ZERO;
    const coworld = coworlds.get(row.coworld_id);
    return {
      id: row.id,
      requester_user_id: row.requester_user_id,
      coworld_id: row.coworld_id,
      coworld_name: coworld?.name ?? "",
      coworld_version: coworld?.version ?? "",
      variant_id: row.variant_id,
      league_id: row.league_id,
      division_id: row.division_id,
      status: statusOf(row, c),
      episode_count:
        c.pending_count +
        c.submitted_count +
        c.running_count +
        c.completed_count +
        c.failed_count +
        c.cancelled_count,
      ...c,
      notes: row.notes,
      error: row.error,
      created_at: row.created_at,
      started_at: row.started_at,
      completed_at: row.completed_at,
    };
  });
}

async function episodesOf(db: Kysely<Database>, id: string): Promise<EpisodeRequest[]> {
  const rows = await db
    .selectFrom("episode_requests")
    .selectAll()
    .where("experience_request_id", "=", id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return episodeViews(db, rows);
}

async function detail(
  db: Kysely<Database>,
  row: ExperienceRequestsTable,
): Promise<ExperienceRequestDetail> {
  const [view] = await rowViews(db, [row]);
  if (!view) throw new Error("unreachable: one row gives one view");
  return { ...view, episodes: await episodesOf(db, row.id) };
}

/** The request if the caller may read it (its requester or an admin); otherwise 404. */
export async function getExperienceRequestRow(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<ExperienceRequestsTable> {
  const row = await db
    .selectFrom("experience_requests")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || !canSeeEvaluation(identity, row)) throw notFound("experience request", id);
  return row;
}

function endEvent(
  emit: Emit,
  row: ExperienceRequestsTable,
  type: (typeof EXPERIENCE_REQUEST_ENDED)[number] | "experience_request_created",
  headline: string,
  payload: Record<string, unknown>,
): void {
  emit({
    type,
    audience: "owner",
    userId: row.requester_user_id,
    experienceRequestId: row.id,
    refs: {},
    headline,
    payload: { experience_request_id: row.id, ...payload },
  });
}

/**
 * Creates an experience request for `identity` and queues its episodes, in one transaction.
 * Other features (tournaments) call this too; `experience_request_*` events on the bus, with
 * `experience_request_id` set, tell them when it ends (see EXPERIENCE_REQUEST_ENDED).
 */
export async function createExperienceRequest(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  body: CreateExperienceRequest,
  /** Fixed seats per episode, in place of drawing from the roster (a tournament's wave seats a
   * different match in each episode); one entry per episode, each as many seats as the roster. */
  episodeSeats?: readonly (readonly Seat[])[],
  /** Versions their owners put in this game themselves (a lobby's claimed seats), seated
   * without the requester's access to them (access/versions.ts). */
  preauthorised: ReadonlySet<string> = new Set(),
  /** The work queue's class for its episodes: a lobby's game is hosted play, not an evaluation. */
  shareClass: ShareClass = "evaluation",
): Promise<ExperienceRequestDetail> {
  const plan = await resolveRequest(db, identity, body, preauthorised);
  const state = await planState(db, identity, body, plan.coworld.name, plan.seats);
  if (
    episodeSeats &&
    (episodeSeats.length !== body.num_episodes ||
      episodeSeats.some((s) => s.length !== plan.seats.length))
  ) {
    throw new Error(
      `episodeSeats must give ${body.num_episodes} episode(s) of ${plan.seats.length} seat(s)`,
    );
  }
  const now = nowIso();
  const row: ExperienceRequestsTable = {
    id: newId("experienceRequest"),
    requester_user_id: identity.userId,
    coworld_id: plan.coworld.id,
    variant_id: plan.variantId,
    league_id: plan.league?.id ?? null,
    division_id: plan.division?.id ?? null,
    status: "submitted",
    episode_count: body.num_episodes,
    request: JSON.stringify(body),
    notes: body.notes ?? null,
    error: null,
    created_at: now,
    // Its episodes are on the queue from the start.
    started_at: now,
    completed_at: null,
  };
  await withEvents(db, bus, async (trx, emit) => {
    await trx.insertInto("experience_requests").values(row).execute();
    for (let i = 0; i < body.num_episodes; i++) {
      const seats = episodeSeats?.[i] ?? plan.seats.map((choose) => choose());
      await createEpisode(trx, {
        requesterUserId: identity.userId,
        purpose: "experience",
        coworld: plan.coworld,
        gameConfig: plan.gameConfig,
        participants: seats.map((seat, position) => ({
          position,
          policyVersionId: seat.policyVersionId,
          playerId: seat.playerId,
          displayName: seat.displayName,
        })),
        experienceRequestId: row.id,
        configOverlaySecret: body.game_config_overlay_secret ?? null,
        state,
        runtime: plan.runtime,
        shareClass,
      });
    }
    endEvent(
      emit,
      row,
      "experience_request_created",
      `Experience request of ${body.num_episodes} episode(s) on ${plan.coworld.name} queued`,
      { episodes: body.num_episodes },
    );
  });
  return detail(db, row);
}

export async function listExperienceRequests(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  query: { mine?: boolean | undefined; limit: number; offset: number },
) {
  const own = query.mine === true || !actsAsAdmin(identity);
  let q = db.selectFrom("experience_requests");
  if (own) q = q.where("requester_user_id", "=", identity.userId);
  const total = await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return {
    entries: await rowViews(db, rows),
    total_count: Number(total.n),
    limit: query.limit,
    offset: query.offset,
  };
}

export async function getExperienceRequest(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<ExperienceRequestDetail> {
  return detail(db, await getExperienceRequestRow(db, identity, id));
}

export async function listExperienceRequestEpisodes(
  db: Kysely<Database>,
  identity: Identity,
  id: string,
): Promise<EpisodeRequest[]> {
  const row = await getExperienceRequestRow(db, identity, id);
  return episodesOf(db, row.id);
}

/** Withdraws the queued episodes (their jobs are never leased); leased ones run to their end. */
async function withdrawQueued(trx: Transaction<Database>, id: string): Promise<number> {
  const queued = await trx
    .selectFrom("jobs as j")
    .innerJoin("episode_requests as e", "e.id", "j.episode_request_id")
    .select(["j.id as job_id", "e.id as episode_id"])
    .where("e.experience_request_id", "=", id)
    .where("j.status", "=", "queued")
    .execute();
  if (queued.length === 0) return 0;
  // Every job in one statement before the first episode takes the change counter (a lease holds
  // its job's row while it waits for that counter: one job at a time deadlocked with it).
  const withdrawn = await trx
    .updateTable("jobs")
    .set({ status: "cancelled", updated_at: nowIso() })
    .where(
      "id",
      "in",
      queued.map((job) => job.job_id),
    )
    .where("status", "=", "queued")
    .returning("episode_request_id")
    .execute();
  for (const job of withdrawn)
    await touchEpisode(trx, job.episode_request_id, {
      status: "cancelled",
      error_type: "cancelled",
      error: "the experience request was cancelled",
    });
  return withdrawn.length;
}

export async function cancelExperienceRequest(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: Identity,
  id: string,
): Promise<ExperienceRequestDetail> {
  const row = await getExperienceRequestRow(db, identity, id);
  const cancelled = await withEvents(db, bus, async (trx, emit) => {
    const at = nowIso();
    const res = await trx
      .updateTable("experience_requests")
      .set({ status: "cancelled", completed_at: at })
      .where("id", "=", row.id)
      .where("status", "not in", FINAL_REQUEST)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    const withdrawn = await withdrawQueued(trx, row.id);
    endEvent(
      emit,
      row,
      "experience_request_cancelled",
      `Experience request cancelled (${withdrawn} queued episode(s) withdrawn)`,
      { status: "cancelled", withdrawn },
    );
    return true;
  });
  const now = await getExperienceRequestRow(db, identity, id);
  if (!cancelled) throw conflict(`experience request ${id} has already ended (${now.status})`);
  return detail(db, now);
}

/**
 * Ends the request once all its episodes are final: `completed` when any episode completed,
 * else `failed`. A conditional update, so it ends once whichever replica gets there first.
 */
export async function settleExperienceRequest(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  id: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("experience_requests")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || FINAL_REQUEST.includes(row.status)) return false;
  return withEvents(db, bus, async (trx, emit) => {
    const episodes = await trx
      .selectFrom("episode_requests")
      .select(["status"])
      .where("experience_request_id", "=", id)
      .execute();
    if (episodes.some((e) => !FINAL_EPISODE.includes(e.status))) return false;
    const completed = episodes.filter((e) => e.status === "completed").length;
    const status = completed > 0 ? "completed" : "failed";
    const error = status === "failed" ? `all ${episodes.length} episode(s) failed` : null;
    const res = await trx
      .updateTable("experience_requests")
      .set({ status, error, completed_at: nowIso() })
      .where("id", "=", id)
      .where("status", "not in", FINAL_REQUEST)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    endEvent(
      emit,
      row,
      status === "completed" ? "experience_request_completed" : "experience_request_failed",
      `Experience request ${status}: ${completed} of ${episodes.length} episode(s) completed`,
      {
        status,
        episodes: episodes.length,
        completed,
      },
    );
    return true;
  });
}

/** The experience request an episode belongs to, if any. */
export async function experienceRequestOfEpisode(
  db: Kysely<Database>,
  episodeRequestId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("episode_requests")
    .select("experience_request_id")
    .where("id", "=", episodeRequestId)
    .executeTakeFirst();
  return row?.experience_request_id ?? null;
}

/** Requests whose episodes are all final but which have not ended (after a restart or a missed wake-up). */
export async function settleableExperienceRequests(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("experience_requests as x")
    .select("x.id")
    .where("x.status", "not in", FINAL_REQUEST)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("episode_requests as e")
            .select("e.id")
            .whereRef("e.experience_request_id", "=", "x.id")
            .where("e.status", "not in", FINAL_EPISODE),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.id);
}

/** For features that wait on a request: the ids of requests that ended in these event rows. */
export function endedExperienceRequests(
  rows: readonly CompetitionEventsTable[],
): { id: string; status: string }[] {
  return rows.flatMap((r) =>
    r.experience_request_id !== null &&
    (EXPERIENCE_REQUEST_ENDED as readonly string[]).includes(r.event_type)
      ? [{ id: r.experience_request_id, status: r.event_type.replace("experience_request_", "") }]
      : [],
  );
}

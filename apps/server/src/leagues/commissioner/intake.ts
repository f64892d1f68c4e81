// A commissioner's schedule_episodes, checked and queued: each request must name a variant of the
// coworld, a roster the game seats and only policy versions that play in the league; its
// overrides are public values (no runner-managed `tokens`, no `secret://`); private input comes
// by the reserved tag `coworld_config_overlay_secret`, the name of a secret of the coworld
// (episodes/config-overlay.ts, resolved only when a runner takes the job). Accepted requests
// become episodes on the work queue exactly as a round's episodes do, with the commissioner's
// request id, tags and overrides kept on the episode.
import type { Kysely } from "kysely";

import {
  CONFIG_OVERLAY_TAG,
  GameConfigOverlaySecretName,
  jsonBytes,
  rosterBounds,
  type CommissionerEpisodeRequest,
  type CoworldManifest,
} from "@gauntlet/core";

import { overlaySecretExists } from "../../episodes/config-overlay.ts";
import { createEpisode } from "../../episodes/episodes.ts";
import { parseJson } from "../../shared/clock.ts";
import type { CoworldsTable, Database, LeaguesTable, RoundsTable } from "../../store/schema.ts";
import { ACTIVE_STATUSES } from "../champions.ts";
import { ladderOrDefault } from "../ladder.ts";
import { COMMISSIONER_STORED_MAX_BYTES } from "./round-record.ts";

export interface Intake {
  accepted: string[];
  errors: Record<string, string>;
}

const MAX_SEED = 2 ** 31 - 1;

function hasSecret(value: unknown): boolean {
  if (typeof value === "string") return value.startsWith("secret://");
  if (Array.isArray(value)) return value.some(hasSecret);
  if (typeof value === "object" && value !== null) return Object.values(value).some(hasSecret);
  return false;
}

/** Why a requested episode cannot be queued, or null: the rule for every commissioner's requests. */
export function requestRefusal(
  request: CommissionerEpisodeRequest,
  manifest: CoworldManifest,
  seatable: ReadonlyMap<string, unknown>,
  used: ReadonlySet<string>,
): string | null {
  if (used.has(request.request_id))
    return `request_id ${request.request_id} is already used in this round`;
  if (!manifest.variants.some((v) => v.id === request.variant_id))
    return `unknown variant_id: ${request.variant_id}`;
  const bounds = rosterBounds(manifest);
  const n = request.policy_version_ids.length;
  if (n < bounds.min || n > bounds.max)
    return `the game seats ${bounds.min}–${bounds.max} players; ${n} policy_version_ids were given`;
  const unknown = request.policy_version_ids.find((id) => !seatable.has(id));
  if (unknown !== undefined) return `unknown policy_version_id: ${unknown}`;
  if ("tokens" in request.game_config_overrides)
    return "game_config_overrides may not set tokens (the runner manages them)";
  if (hasSecret(request.game_config_overrides))
    return "game_config_overrides may not hold secret:// values";
  // Kept on the episode, which every episodes listing serves.
  const kept = jsonBytes({ tags: request.tags, overrides: request.game_config_overrides });
  if (kept > COMMISSIONER_STORED_MAX_BYTES)
    return `tags and game_config_overrides are ${kept} bytes of JSON, past ${COMMISSIONER_STORED_MAX_BYTES}`;
  const overlay = request.tags[CONFIG_OVERLAY_TAG];
  if (overlay !== undefined && !GameConfigOverlaySecretName.safeParse(overlay).success)
    return `tags.${CONFIG_OVERLAY_TAG} must name a coworld secret`;
  if (request.seed != null && (request.seed < 0 || request.seed > MAX_SEED))
    return `seed must be between 0 and ${MAX_SEED}`;
  return null;
}

/** The league's seatable versions: its live memberships' (with their player) and its fillers. */
export async function seatableVersions(
  db: Kysely<Database>,
  league: LeaguesTable,
): Promise<Map<string, { playerId: string | null; name: string | null }>> {
  const rows = await db
    .selectFrom("league_policy_memberships as m")
    .leftJoin("players as p", "p.id", "m.player_id")
    .select(["m.policy_version_id", "m.player_id", "p.name"])
    .where("m.league_id", "=", league.id)
    .where("m.status", "in", ACTIVE_STATUSES)
    .execute();
  const out = new Map<string, { playerId: string | null; name: string | null }>();
  for (const id of parseJson<string[]>(league.filler_policy_version_ids))
    out.set(id, { playerId: null, name: null });
  for (const r of rows) out.set(r.policy_version_id, { playerId: r.player_id, name: r.name });
  return out;
}

export async function takeEpisodes(
  db: Kysely<Database>,
  league: LeaguesTable,
  round: RoundsTable,
  coworld: CoworldsTable,
  manifest: CoworldManifest,
  requests: readonly CommissionerEpisodeRequest[],
  used: Set<string>,
): Promise<Intake> {
  const seatable = await seatableVersions(db, league);
  const intake: Intake = { accepted: [], errors: {} };
  const ok: CommissionerEpisodeRequest[] = [];
  // A round's episodes stay within the league's max_episodes_per_round, as a built-in round's do.
  const cap = ladderOrDefault(league).max_episodes_per_round;
  const queued = await db
    .selectFrom("rounds")
    .select("episode_count")
    .where("id", "=", round.id)
    .executeTakeFirst();
  let room = cap - (queued?.episode_count ?? round.episode_count);
  for (const request of requests) {
    const overlay = request.tags[CONFIG_OVERLAY_TAG];
    const why =
      requestRefusal(request, manifest, seatable, used) ??
      (room <= 0 ? `the round has its max_episodes_per_round (${cap}) episodes` : null) ??
      (overlay !== undefined && !(await overlaySecretExists(db, coworld.name, overlay))
        ? `tags.${CONFIG_OVERLAY_TAG}: coworld ${coworld.name} has no secret ${overlay}`
        : null);
    if (why) intake.errors[request.request_id] = why;
    else {
      ok.push(request);
      used.add(request.request_id);
      room -= 1;
    }
  }
  if (ok.length === 0) return intake;
  const versions = await db
    .selectFrom("policy_versions")
    .select(["id", "bundle_upload_id"])
    .where("id", "in", [...new Set(ok.flatMap((r) => r.policy_version_ids))])
    .execute();
  const bundled = new Set(versions.filter((v) => v.bundle_upload_id !== null).map((v) => v.id));
  await db.transaction().execute(async (trx) => {
    for (const request of ok) {
      const variant = manifest.variants.find((v) => v.id === request.variant_id);
      await createEpisode(trx, {
        requesterUserId: league.commissioner_user_id,
        purpose: "round",
        coworld,
        gameConfig: { ...(variant?.game_config ?? {}), ...request.game_config_overrides },
        participants: request.policy_version_ids.map((id, position) => {
          const seat = seatable.get(id);
          return {
            position,
            policyVersionId: id,
            playerId: seat?.playerId ?? null,
            displayName: seat?.name ?? `seat ${position}`,
          };
        }),
        configOverlaySecret: request.tags[CONFIG_OVERLAY_TAG] ?? null,
        leagueId: league.id,
        divisionId: round.division_id,
        roundId: round.id,
        runtime: request.policy_version_ids.every((id) => bundled.has(id)) ? "process" : "docker",
        commissioner: {
          requestId: request.request_id,
          tags: request.tags,
          gameConfigOverrides: request.game_config_overrides,
        },
        ...(request.seed != null ? { seed: request.seed } : {}),
      });
      intake.accepted.push(request.request_id);
    }
    await trx
      .updateTable("rounds")
      .set((eb) => ({ episode_count: eb("episode_count", "+", ok.length) }))
      .where("id", "=", round.id)
      .execute();
  });
  return intake;
}

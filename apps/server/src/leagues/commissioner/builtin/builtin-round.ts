// A built-in round's schedule, asked for over the commissioner protocol: the platform sends the
// ladder commissioner the same `round_start` a coworld's commissioner gets (league, divisions,
// memberships, recent results, variants), reads its `schedule_episodes` through the same session
// checks, and holds every request to the same intake rules (intake.ts) before a round is made of
// them. The answer is grouped back into the round's pools by the requests' pool tag.
import type { Kysely } from "kysely";

import type { CommissionerRoundSpec, CoworldManifest } from "@gauntlet/core";

import type { Database, LeaguesTable } from "../../../store/schema.ts";
import type { Seat, SkipReason } from "../../rules/index.ts";
import {
  divisionInfos,
  leagueInfo,
  membershipInfos,
  recentResults,
  recentRounds,
  variantInfos,
} from "../context.ts";
import { requestRefusal, seatableVersions } from "../intake.ts";
import { memoryChannel } from "../memory-channel.ts";
import { CommissionerSession } from "../session.ts";
import { toWire } from "../wire-ids.ts";
import { sessionTap, type BuiltinTap } from "./builtin-messages.ts";
import {
  FILLER_SEATS_TAG,
  ladderCommissioner,
  POOL_TAG,
  SEATING_TAG,
  type LadderInput,
  type SkippedDisplay,
} from "./ladder-commissioner.ts";

export type { BuiltinTap } from "./builtin-messages.ts";

/** A built-in commissioner answers at once; this only bounds a bug. */
const REPLY_MS = 10_000;

export interface ScheduledEpisode {
  requestId: string;
  tags: Record<string, string>;
  seats: Seat[];
}

export interface ScheduledPool {
  playerIds: string[];
  episodes: ScheduledEpisode[];
}

export type BuiltinSchedule =
  | {
      kind: "run";
      seating: string;
      pools: ScheduledPool[];
      episodeCount: number;
      /** Tells the commissioner its episodes were queued, and ends the session. */
      accepted(): Promise<void>;
      /** Ends the session without a round (the look before the league lock). */
      discard(reason: string): Promise<void>;
    }
  | { kind: "skip"; reason: SkipReason | "commissioner"; message: string };

export interface BuiltinAsk {
  league: LeaguesTable;
  roundId: string;
  roundNumber: number;
  manifest: CoworldManifest;
  input: LadderInput;
  tap?: BuiltinTap | undefined;
}

/**
 * The scheduling phase: the built-in is shown its league (`schedule_rounds_request`) and answers
 * with the RoundSpecs of what is due; the spec for the division, if any, is the round to make.
 */
export async function askBuiltinSchedule(
  db: Kysely<Database>,
  ask: Pick<BuiltinAsk, "league" | "input" | "tap">,
  divisionId: string,
): Promise<CommissionerRoundSpec | null> {
  const tap = sessionTap(ask.tap);
  const session = new CommissionerSession(memoryChannel(ladderCommissioner(ask.input)), (m) =>
    tap("sent", m),
  );
  try {
    await session.send({
      type: "schedule_rounds_request",
      league: leagueInfo(ask.league),
      divisions: await divisionInfos(db, ask.league.id),
      active_memberships: await membershipInfos(db, ask.league.id, { withPreferences: false }),
      recent_rounds: await recentRounds(db, ask.league.id),
    });
    const answer = await session.expect(["schedule_rounds_response"], REPLY_MS);
    tap("received", answer);
    return answer.rounds.find((r) => r.division_id === toWire(divisionId)) ?? null;
  } finally {
    await session.close("scheduled");
  }
}

function isSkipped(display: unknown): display is SkippedDisplay {
  if (typeof display !== "object" || display === null || !("skipped" in display)) return false;
  const skipped = display.skipped;
  return typeof skipped === "object" && skipped !== null && "reason" in skipped;
}

export async function askBuiltin(db: Kysely<Database>, ask: BuiltinAsk): Promise<BuiltinSchedule> {
  const tap = sessionTap(ask.tap);
  const session = new CommissionerSession(memoryChannel(ladderCommissioner(ask.input)), (m) =>
    tap("sent", m),
  );
  let open = true;
  const end = async (reason: string) => {
    if (!open) return;
    open = false;
    await session.close(reason);
  };
  try {
    const { league } = ask;
    await session.send({
      type: "round_start",
      round_id: toWire(ask.roundId),
      round_number: ask.roundNumber,
      league: leagueInfo(league),
      divisions: await divisionInfos(db, league.id),
      memberships: await membershipInfos(db, league.id, { withPreferences: false }),
      recent_results: await recentResults(db, league.id),
      variants: variantInfos(ask.manifest),
      completed_episodes: [],
      state: null,
    });
    const answer = await session.expect(["schedule_episodes", "round_complete"], REPLY_MS);
    tap("received", answer);
    if (answer.type === "round_complete") {
      await end("no round");
      const display = answer.round_display;
      return isSkipped(display)
        ? { kind: "skip", reason: display.skipped.reason, message: display.skipped.message }
        : { kind: "skip", reason: "commissioner", message: "the commissioner scheduled nothing" };
    }
    const seatable = await seatableVersions(db, league);
    const players = new Map(ask.input.entrants.map((e) => [e.policyVersionId, e.playerId]));
    const fillers = new Set(ask.input.fillerPolicyVersionIds ?? []);
    const used = new Set<string>();
    const pools = new Map<string, ScheduledPool>();
    let seating = "";
    for (const request of answer.episodes) {
      const why = requestRefusal(request, ask.manifest, seatable, used);
      // Built-in seating only seats the league's own versions; a refusal is a bug, not a round.
      if (why) throw new Error(`the built-in commissioner's ${request.request_id}: ${why}`);
      used.add(request.request_id);
      seating = request.tags[SEATING_TAG] ?? seating;
      const key = request.tags[POOL_TAG] ?? "0";
      const pool = pools.get(key) ?? { playerIds: [], episodes: [] };
      pools.set(key, pool);
      const seen = new Set<string>();
      // No tag, no filler seat ("".split(",") is [""], which is not seat 0).
      const fillerSeats = new Set(
        (request.tags[FILLER_SEATS_TAG] ?? "")
          .split(",")
          .filter((at) => at !== "")
          .map(Number),
      );
      const seats = request.policy_version_ids.map((id, at): Seat => {
        const playerId = fillerSeats.has(at) && fillers.has(id) ? undefined : players.get(id);
        if (playerId === undefined) return { role: "filler", playerId: null, policyVersionId: id };
        const role = seen.has(playerId) ? "duplicate" : "champion";
        seen.add(playerId);
        if (!pool.playerIds.includes(playerId)) pool.playerIds.push(playerId);
        return { role, playerId, policyVersionId: id };
      });
      pool.episodes.push({ requestId: request.request_id, tags: request.tags, seats });
    }
    const ids = [...used];
    return {
      kind: "run",
      seating,
      pools: [...pools.values()],
      episodeCount: ids.length,
      accepted: async () => {
        if (!open) return;
        await session.send({ type: "episodes_accepted", request_ids: ids });
        await end("episodes queued");
      },
      discard: async (reason) => {
        if (!open) return;
        await session.send({ type: "round_abort", reason });
        await end(reason);
      },
    };
  } catch (error) {
    await end("failed");
    throw error;
  }
}

// One round run by its commissioner: round_start with the league's context, the variants of the
// coworld and the state of the last round; then, until round_complete, the commissioner's
// schedule_episodes are checked and queued (episodes_accepted / episodes_rejected) and each
// episode's end is reported (episode_result / episode_failed). The session renews its lease on
// the round while it lives; any failure of the commissioner fails the round (round-fail.ts).
import type { Kysely } from "kysely";

import type { EventBus } from "../../events/bus.ts";
import type { Database, LeaguesTable, RoundsTable } from "../../store/schema.ts";
import { CommissionerFailure } from "./channel.ts";
import {
  divisionInfos,
  leagueInfo,
  membershipInfos,
  previousState,
  recentResults,
  variantInfos,
} from "./context.ts";
import { takeEpisodes } from "./intake.ts";
import { endedEpisodes } from "./outcomes.ts";
import type { ResolvedCommissioner } from "./resolve.ts";
import { renewLease } from "./round-lease.ts";
import { recordRoundComplete } from "./round-record.ts";
import type { CommissionerSession } from "./session.ts";
import { toWire } from "./wire-ids.ts";

export interface SessionTiming {
  /** The whole session, at most (upstream's max lifetime). */
  lifetimeMs: number;
  /** Between looks at the round's episodes. */
  pollMs: number;
  leaseMs: number;
}

export interface RoundRun {
  db: Kysely<Database>;
  bus: Pick<EventBus, "publish">;
  session: CommissionerSession;
  league: LeaguesTable;
  round: RoundsTable;
  commissioner: Extract<ResolvedCommissioner, { kind: "coworld" }>;
  owner: string;
  timing: SessionTiming;
  signal: AbortSignal;
}

export type RoundEnd =
  { kind: "completed" } | { kind: "aborted"; reason: string } | { kind: "lost" };

export async function runRound(run: RoundRun): Promise<RoundEnd> {
  const { db, session, league, round, commissioner, timing } = run;
  const deadline = Date.now() + timing.lifetimeMs;
  await session.send({
    type: "round_start",
    round_id: toWire(round.id),
    round_number: round.round_number,
    league: leagueInfo(league),
    divisions: await divisionInfos(db, league.id),
    memberships: await membershipInfos(db, league.id),
    recent_results: await recentResults(db, league.id),
    variants: variantInfos(commissioner.manifest),
    completed_episodes: [],
    state: await previousState(db, league.id, commissioner.runnableId),
  });
  const used = new Set<string>();
  const reported = new Set<string>();
  let renewedAt = Date.now();
  for (;;) {
    if (run.signal.aborted) {
      const reason = String(run.signal.reason ?? "the server is stopping");
      await session.send({ type: "round_abort", reason });
      return { kind: "aborted", reason };
    }
    const left = deadline - Date.now();
    if (left <= 0)
      throw new CommissionerFailure(
        "timeout",
        `the commissioner did not complete the round within ${timing.lifetimeMs} ms`,
      );
    const message = await session.poll(
      ["schedule_episodes", "round_complete"],
      timing.pollMs,
      left,
    );
    if (message?.type === "schedule_episodes") {
      const intake = await takeEpisodes(
        db,
        league,
        round,
        commissioner.coworld,
        commissioner.manifest,
        message.episodes,
        used,
      );
      if (intake.accepted.length > 0)
        await session.send({ type: "episodes_accepted", request_ids: intake.accepted });
      const rejected = Object.keys(intake.errors);
      if (rejected.length > 0)
        await session.send({
          type: "episodes_rejected",
          request_ids: rejected,
          errors: intake.errors,
        });
    } else if (message?.type === "round_complete") {
      const recorded = await recordRoundComplete(db, run.bus, round, run.owner, message);
      return recorded ? { kind: "completed" } : { kind: "lost" };
    }
    const ended = await endedEpisodes(db, round.id, reported);
    for (const m of ended.messages) {
      reported.add(m.request_id);
      await session.send(m);
    }
    if (Date.now() - renewedAt > timing.leaseMs / 3) {
      if (!(await renewLease(db, round.id, run.owner, timing.leaseMs))) return { kind: "lost" };
      renewedAt = Date.now();
    }
  }
}

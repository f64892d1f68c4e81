// A round_complete, recorded in one transaction that begins by claiming the round (still running,
// still this replica's): the rankings become the round's results and the players' ratings follow
// them under the league's rating rule (each division's ranking read as one game whose placings
// are the ranks), the membership events are applied, the standings of every touched division are
// refreshed, and the state is kept for the next round_start (a state past the limit is dropped
// with a note in the round's commissioner log, as COMMISSIONER.md has it).
import type { Kysely } from "kysely";

import { jsonBytes, stateToKeep, type RoundComplete } from "@gauntlet/core";

import { cancelEpisodes } from "../../episodes/episodes.ts";
import type { EventBus } from "../../events/bus.ts";
import { withEvents } from "../../events/record.ts";
import { nowIso } from "../../shared/clock.ts";
import type { Database, RoundsTable } from "../../store/schema.ts";
import { ladderOrDefault } from "../ladder.ts";
import { lockLeague } from "../league-lock.ts";
import { announceMoves, completedRounds } from "../promotion-moves.ts";
import { recordRatedResults } from "../round-rating.ts";
import type { RoundResult, SettledEpisode } from "../rules/index.ts";
import { refreshStandings } from "../standings-write.ts";
import { CommissionerFailure } from "./channel.ts";
import { applyMembershipEvents, leagueDivisions, legacyChanges } from "./membership-events.ts";
import { fromWire } from "./wire-ids.ts";

const refuse = (message: string) => new CommissionerFailure("malformed", message);

/**
 * What a commissioner may have kept in one place that others' reads serve, at most, as JSON: a
 * round's display (with its observability) and its config, an episode's tags and overrides, a
 * ranking's result_metadata. Every rounds or episodes listing carries them, public ones too, so a
 * commissioner's megabytes would be served with every page. A display past it is not kept (the
 * round counts; its log says why, as for a state past its limit); the others are refused.
 */
export const COMMISSIONER_STORED_MAX_BYTES = 64 * 1024;

function displayToKeep(message: RoundComplete): { json: string; dropped: string | null } {
  const display = {
    ...(message.round_display ?? {}),
    ...(message.observability ? { observability: message.observability } : {}),
  };
  const bytes = jsonBytes(display);
  if (bytes <= COMMISSIONER_STORED_MAX_BYTES)
    return { json: JSON.stringify(display), dropped: null };
  return {
    json: JSON.stringify({}),
    dropped: `the round's round_display and observability (${bytes} bytes of JSON) are past the limit of ${COMMISSIONER_STORED_MAX_BYTES} bytes and were not kept`,
  };
}

export async function recordRoundComplete(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  round: RoundsTable,
  leaseOwner: string,
  message: RoundComplete,
): Promise<boolean> {
  return withEvents(db, bus, async (trx, emit) => {
    const league = await lockLeague(trx, round.league_id);
    if (!league) return false;
    const completedAt = nowIso();
    const state = stateToKeep(message.state);
    const display = displayToKeep(message);
    // Why the state or the display was not kept, for the league's owner (as a failed round's log is).
    const notes = [state.dropped, display.dropped].filter((n) => n !== null);
    const claimed = await trx
      .updateTable("rounds")
      .set({
        status: "completed",
        active: null,
        completed_at: completedAt,
        commissioner_state: state.json,
        ...(notes.length > 0 ? { commissioner_log: notes.join("\n") } : {}),
        round_display: display.json,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where("id", "=", round.id)
      .where("status", "=", "running")
      .where("lease_owner", "=", leaseOwner)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    // Episodes still running when the commissioner closed the round count for nothing.
    const unfinished = await trx
      .selectFrom("episode_requests")
      .select("id")
      .where("round_id", "=", round.id)
      .where("status", "not in", ["completed", "failed", "cancelled"])
      .execute();
    await cancelEpisodes(
      trx,
      unfinished.map((e) => e.id),
      "the commissioner completed the round",
    );

    const { divisions, open } = await leagueDivisions(trx, league.id);
    const memberships = await trx
      .selectFrom("league_policy_memberships")
      .select(["policy_version_id", "player_id"])
      .where("league_id", "=", league.id)
      .execute();
    const playerOf = new Map(memberships.map((m) => [m.policy_version_id, m.player_id]));
    const settings = ladderOrDefault(league);
    const touched = new Set<string>([round.division_id]);
    let ranked = 0;
    for (const ranking of message.results) {
      const divisionId = fromWire("division", ranking.division_id);
      if (!divisions.some((d) => d.id === divisionId))
        throw refuse(`rankings for ${ranking.division_id}, not a division of the league`);
      const results: RoundResult[] = [];
      const champions = new Map<string, string>();
      const metadata = new Map<string, Record<string, unknown>>();
      const participants: SettledEpisode["participants"][number][] = [];
      const worst = Math.max(0, ...ranking.rankings.map((r) => r.rank));
      for (const entry of ranking.rankings) {
        const playerId = playerOf.get(entry.policy_version_id);
        if (!playerId)
          throw refuse(
            `ranking of ${entry.policy_version_id}, not a policy version playing in the league`,
          );
        if (entry.rank < 1)
          throw refuse(`rank ${entry.rank} of ${entry.policy_version_id} is below 1`);
        if (jsonBytes(entry.result_metadata) > COMMISSIONER_STORED_MAX_BYTES)
          throw refuse(
            `result_metadata of ${entry.policy_version_id} is past ${COMMISSIONER_STORED_MAX_BYTES} bytes of JSON`,
          );
        results.push({ subjectId: playerId, rank: entry.rank, score: entry.score, episodes: 1 });
        champions.set(playerId, entry.policy_version_id);
        metadata.set(playerId, { commissioner: entry.result_metadata });
        // The placing as the rating rule's score: a better rank is a higher score.
        participants.push({ subjectId: playerId, score: worst + 1 - entry.rank });
      }
      if (results.length === 0) continue;
      await recordRatedResults(trx, {
        league,
        round,
        divisionId,
        settings,
        episodes: [{ participants, at: new Date(completedAt) }],
        results,
        champions,
        completedAt,
        metadata,
      });
      ranked += results.length;
      touched.add(divisionId);
    }
    const events = [
      ...message.policy_membership_events,
      ...legacyChanges(message.membership_changes),
    ];
    const applied = await applyMembershipEvents(trx, league.id, events, open);
    for (const id of applied.divisionIds) touched.add(id);

    const division = divisions.find((d) => d.id === round.division_id);
    if (division)
      emit({
        type: "round_completed",
        refs: { league, division },
        roundId: round.id,
        headline: `${division.name}: round ${round.round_number} completed`,
        summary: `${ranked} player(s) ranked by the commissioner${applied.moved ? `; ${applied.moved} membership(s) moved` : ""}.`,
        payload: {
          round_id: round.id,
          round_number: round.round_number,
          status: "completed",
          episodes: round.episode_count,
          failed_episodes: 0,
        },
      });
    await announceMoves(trx, emit, league, divisions, applied.moves, {
      rule: "commissioner",
      afterRounds: await completedRounds(trx, round.division_id),
    });
    for (const d of divisions)
      if (touched.has(d.id))
        await refreshStandings(
          trx,
          league,
          settings,
          d,
          d.id === round.division_id ? round.id : null,
          emit,
        );
    return true;
  });
}

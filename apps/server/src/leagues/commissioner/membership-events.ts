// Applying a commissioner's policy membership events (round_complete, league_migration_response):
// each names a live membership of the league and may move it to another of the league's open
// divisions, set its status and substatus, or end it. A commissioner never sets champions, and an
// event naming anything outside the league is refused whole (the caller's transaction rolls back).
import type { Transaction } from "kysely";

import {
  MembershipStatus,
  MembershipSubstatus,
  type CommissionerMembershipEvent,
} from "@gauntlet/core";

import { nowIso } from "../../shared/clock.ts";
import type { Database, DivisionsTable } from "../../store/schema.ts";
import { ACTIVE_STATUSES } from "../champions.ts";
import { CommissionerFailure } from "./channel.ts";
import { fromWire } from "./wire-ids.ts";

export interface AppliedEvents {
  /** Divisions whose members changed (for standings to refresh). */
  divisionIds: Set<string>;
  moved: number;
  /** Each player whose rating row ended in another division: once, from where it was to where it is. */
  moves: { playerId: string; fromDivisionId: string; toDivisionId: string }[];
}

const refuse = (message: string) => new CommissionerFailure("malformed", message);

/** The league's divisions, and the ids of those an event may move a membership into (open ones). */
export async function leagueDivisions(
  trx: Transaction<Database>,
  leagueId: string,
): Promise<{ divisions: DivisionsTable[]; open: Set<string> }> {
  const divisions = await trx
    .selectFrom("divisions")
    .selectAll()
    .where("league_id", "=", leagueId)
    .execute();
  return {
    divisions,
    open: new Set(divisions.filter((d) => d.archived_at === null).map((d) => d.id)),
  };
}

/** `openDivisionIds`: the divisions an event may move a membership into. */
export async function applyMembershipEvents(
  trx: Transaction<Database>,
  leagueId: string,
  events: readonly CommissionerMembershipEvent[],
  openDivisionIds: ReadonlySet<string>,
): Promise<AppliedEvents> {
  const applied: AppliedEvents = { divisionIds: new Set(), moved: 0, moves: [] };
  const now = nowIso();
  for (const event of events) {
    const id = fromWire("membership", event.league_policy_membership_id);
    const membership = await trx
      .selectFrom("league_policy_memberships")
      .selectAll()
      .where("id", "=", id)
      .where("league_id", "=", leagueId)
      .executeTakeFirst();
    if (!membership || !(ACTIVE_STATUSES as readonly string[]).includes(membership.status))
      throw refuse(
        `membership event for ${event.league_policy_membership_id}: no live membership of the league`,
      );
    if (
      event.from_division_id != null &&
      fromWire("division", event.from_division_id) !== membership.division_id
    )
      throw refuse(
        `membership event for ${event.league_policy_membership_id}: it is not in ${event.from_division_id}`,
      );
    const to =
      event.to_division_id != null
        ? fromWire("division", event.to_division_id)
        : membership.division_id;
    if (to !== membership.division_id && !openDivisionIds.has(to))
      throw refuse(
        `membership event for ${event.league_policy_membership_id}: ${event.to_division_id ?? ""} is not an open division of the league`,
      );
    const status = MembershipStatus.safeParse(event.status);
    if (!status.success) throw refuse(`membership event: unknown status ${event.status}`);
    const substatus =
      event.substatus == null
        ? membership.substatus
        : MembershipSubstatus.safeParse(event.substatus).data;
    if (substatus === undefined)
      throw refuse(`membership event: unknown substatus ${String(event.substatus)}`);
    const ends = status.data === "retired" || status.data === "disqualified";
    await trx
      .updateTable("league_policy_memberships")
      .set({
        division_id: to,
        status: status.data,
        substatus,
        ...(ends ? { end_time: now, retired_reason: event.reason, is_champion: 0 } : {}),
      })
      .where("id", "=", id)
      .execute();
    if (to !== membership.division_id && membership.player_id !== null) {
      // A player's rating row follows it (as a promotion moves it).
      await trx
        .updateTable("ladder_ratings")
        .set({ division_id: to, updated_at: now })
        .where("league_id", "=", leagueId)
        .where("player_id", "=", membership.player_id)
        .execute();
      applied.moved += 1;
      // Where the player's rating row went, net: from where it was before the first move to
      // where the last one left it (a move up and back is no move the feed may announce).
      const seen = applied.moves.find((m) => m.playerId === membership.player_id);
      if (seen) seen.toDivisionId = to;
      else
        applied.moves.push({
          playerId: membership.player_id,
          fromDivisionId: membership.division_id,
          toDivisionId: to,
        });
    }
    applied.divisionIds.add(membership.division_id);
    applied.divisionIds.add(to);
  }
  applied.moves = applied.moves.filter((m) => m.fromDivisionId !== m.toDivisionId);
  return applied;
}

/** The legacy `membership_changes` of older commissioners, as events. */
export function legacyChanges(
  changes: readonly {
    membership_id: string;
    from_division_id: string;
    to_division_id?: string | null | undefined;
    is_active: boolean;
    reason: string;
  }[],
): CommissionerMembershipEvent[] {
  return changes.map((c) => ({
    league_policy_membership_id: c.membership_id,
    from_division_id: c.from_division_id,
    to_division_id: c.to_division_id ?? null,
    status: c.is_active ? "competing" : "retired",
    reason: c.reason,
    evidence: [],
  }));
}

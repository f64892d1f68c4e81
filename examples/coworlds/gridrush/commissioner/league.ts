// The league phase: the hill is one division, "Hill". The migration handshake makes it the
// league's only division (renaming the league's first competition division, so its history
// stays) and moves every live membership into it; scheduling asks for a round of the hill
// whenever it has two contenders and no round in flight.
import type { Division, Membership, RecentRound } from "./messages.ts";

export const HILL = "Hill";
const LIVE = new Set(["competing", "qualifying"]);
const SETTLED = new Set(["completed", "failed", "cancelled", "canceled", "aborted"]);

/** The hill among the league's divisions: by name, or the only one there is. */
export function hillDivision(divisions: readonly Division[]): Division | null {
  return (
    divisions.find((d) => d.name === HILL) ??
    (divisions.length === 1 ? (divisions[0] ?? null) : null)
  );
}

/** The hill's contenders: its competing memberships that are their player's current version. */
export function contenders(memberships: readonly Membership[], hill: Division): Membership[] {
  const seen = new Set<string>();
  return memberships.filter((m) => {
    if (m.division_id !== hill.id || m.status !== "competing" || !m.is_champion) return false;
    if (seen.has(m.policy_version_id)) return false;
    seen.add(m.policy_version_id);
    return true;
  });
}

export function migrationConfig(divisions: readonly Division[]): object {
  const byLevel = [...divisions].sort((a, b) => a.level - b.level || a.name.localeCompare(b.name));
  const renamed = divisions.some((d) => d.name === HILL)
    ? null
    : (byLevel.find((d) => d.type === "competition") ?? byLevel[0] ?? null);
  return {
    type: "league_migration_config_response",
    divisions: [
      {
        name: HILL,
        level: 1,
        type: "competition",
        description:
          "King of the hill: the king plays every challenger; beat the king to take the crown.",
        previous_name: renamed?.name ?? null,
      },
    ],
  };
}

export function migrationEvents(
  divisions: readonly Division[],
  memberships: readonly Membership[],
): { type: string; policy_membership_events: object[] } {
  const hill = divisions.find((d) => d.name === HILL);
  const events = hill
    ? memberships
        .filter((m) => LIVE.has(m.status) && m.division_id !== hill.id)
        .map((m) => ({
          league_policy_membership_id: m.id,
          from_division_id: m.division_id,
          to_division_id: hill.id,
          status: m.status,
          reason: "king of the hill: every contender plays on the one hill",
        }))
    : [];
  return { type: "league_migration_response", policy_membership_events: events };
}

export function scheduleRounds(
  divisions: readonly Division[],
  memberships: readonly Membership[],
  recent: readonly RecentRound[],
): { response: object; why: string } {
  const hill = hillDivision(divisions);
  const none = (why: string) => ({
    response: { type: "schedule_rounds_response", rounds: [] },
    why,
  });
  if (!hill) return none(`no division named ${HILL} (the migration makes it)`);
  const rounds = recent.filter((r) => r.division_id === hill.id);
  if (rounds.some((r) => !SETTLED.has(r.status))) return none("a round of the hill is in flight");
  const entrants = contenders(memberships, hill);
  if (entrants.length < 2)
    return none(`${entrants.length} contender(s) on the hill; a round needs 2`);
  const next = Math.max(0, ...rounds.map((r) => r.round_number)) + 1;
  return {
    response: {
      type: "schedule_rounds_response",
      rounds: [
        {
          division_id: hill.id,
          round_config: {
            stages: [{ label: "Challenges", num_episodes: entrants.length - 1 }],
            entrant_policy_version_ids: entrants.map((m) => m.policy_version_id),
          },
          notes: `king of the hill: ${entrants.length - 1} challenge(s)`,
          idempotency_key: `hill-${hill.id}-round-${next}`.slice(0, 200),
        },
      ],
    },
    why: `round ${next} of the hill with ${entrants.length} contenders`,
  };
}

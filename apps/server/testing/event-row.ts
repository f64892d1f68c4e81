// A stored competition event for the events feature's unit tests: public, tied to nothing, with
// what the test sets.
import type { CompetitionEventsTable } from "../src/store/schema.ts";

export function eventRow(
  seq: number,
  fields: Partial<CompetitionEventsTable> = {},
): CompetitionEventsTable {
  return {
    id: `e${seq}`,
    seq,
    event_type: "division_quiet",
    audience: "public",
    user_id: null,
    league_id: null,
    division_id: null,
    round_id: null,
    episode_request_id: null,
    player_id: null,
    policy_version_id: null,
    experience_request_id: null,
    refs: "{}",
    headline: "",
    summary: "",
    payload: "{}",
    created_at: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

// Whether a stranger could join a session now: the pages that join as nobody in particular
// answer a session they cannot join as one that does not exist.
import { isFinal } from "./session-status.ts";
import type { SessionState } from "./sessions.ts";

/** An open slot (no person given it, nobody in it), and the session not ended. */
export function openToStrangers(state: SessionState): boolean {
  return (
    !isFinal(state.row.status) &&
    state.seats.some((s) => s.kind === "human" && s.user_id === null && s.joined_at === null)
  );
}

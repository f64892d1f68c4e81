// Why a running round is not done, in the words the round's answer gives (its `waiting` field):
// episodes queued for a runner and where the first of them stands in the queue.
import type { Round } from "@gauntlet/core";

export function waitingNote(round: Pick<Round, "waiting">): string | null {
  const waiting = round.waiting;
  if (!waiting) return null;
  return `${waiting.reason}: ${waiting.queued_episodes} queued, #${waiting.queue_position} in the queue`;
}

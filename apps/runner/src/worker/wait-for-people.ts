// A live game starts only when every person is here: before the game of a job with a seat a
// person plays, the runner asks the server (a heartbeat, which also keeps the lease) until no
// person is missing. The join timeout is the server's: past it, the server fails the job as
// `player_never_connected` and answers `cancel`, and the game never starts.
import type { LeasedJob } from "@gauntlet/core";

import type { RunnerLog } from "./log.ts";
import type { Queue } from "./queue.ts";

const POLL_MS = 500;

/** True once everyone is connected (at once for a job with no person's seat); false when the job is no longer this runner's or the signal fired. */
export async function waitForPeople(
  queue: Queue,
  job: LeasedJob,
  log: RunnerLog,
  signal: AbortSignal,
  pollMs = POLL_MS,
): Promise<boolean> {
  if (!job.players.some((p) => p.human_relay)) return true;
  let told = -1;
  while (!signal.aborted) {
    let answer: { cancel: boolean; peopleWaiting: number };
    try {
      answer = await queue.heartbeat(job);
    } catch (error) {
      // A passing outage: the lease outlives it, and the next ask may get through.
      log.warn("could not ask whether the players are here", {
        job: job.job_id,
        error: (error as Error).message,
      });
      answer = { cancel: false, peopleWaiting: Math.max(told, 1) };
    }
    if (answer.cancel) return false;
    if (answer.peopleWaiting === 0) return true;
    if (answer.peopleWaiting !== told)
      log.info("waiting for the players to connect", {
        job: job.job_id,
        missing: answer.peopleWaiting,
      });
    told = answer.peopleWaiting;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
  return false;
}

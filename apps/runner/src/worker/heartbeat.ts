// Keeps a lease alive while its episode runs: one heartbeat every third of the lease, so that
// two may be lost before it expires. The server answering `cancel` (the job was cancelled or
// leased to another runner after an expiry), or not knowing the job, means this runner must
// stop the episode and report nothing.
import { isNotFoundError } from "@gauntlet/sdk";

import type { RunnerLog } from "./log.ts";
import type { LeaseRef, Queue } from "./queue.ts";

export interface Heartbeat {
  /** Asks the server now; false when the job is no longer this runner's. */
  confirm(): Promise<boolean>;
  stop(): void;
}

export function startHeartbeat(options: {
  queue: Queue;
  job: LeaseRef;
  leaseSeconds: number;
  log: RunnerLog;
  onLost: () => void;
}): Heartbeat {
  const intervalMs = Math.max(200, Math.floor((options.leaseSeconds * 1000) / 3));
  let lost = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const beat = async (): Promise<boolean> => {
    if (lost) return false;
    try {
      const { cancel } = await options.queue.heartbeat(options.job);
      if (cancel) markLost("the server cancelled the job or gave it to another runner");
    } catch (error) {
      if (isNotFoundError(error)) markLost("the server no longer knows the job");
      // Anything else (a lost connection, a 5xx) may pass: the lease outlives two missed beats.
      else
        options.log.warn("heartbeat failed", {
          job: options.job.job_id,
          error: (error as Error).message,
        });
    }
    return !lost;
  };
  const markLost = (why: string) => {
    if (lost) return;
    lost = true;
    options.log.warn("lease lost; stopping the episode", { job: options.job.job_id, why });
    options.onLost();
  };
  const schedule = () => {
    if (stopped || lost) return;
    timer = setTimeout(() => void beat().finally(schedule), intervalMs);
  };
  schedule();
  return {
    confirm: beat,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

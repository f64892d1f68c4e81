// The order in which queued jobs are leased, by share rather than by age alone. The rule, applied
// to each free slot in turn:
//   1. the class of work that was served least for its weight goes first: its running jobs, the
//      jobs it ran that ended since the classes waiting now all began to wait (contentionSince),
//      and the one it would start, over its weight; ties to the class whose oldest job is oldest.
//      Counting what ended, not only what runs, is what lets a light class in on a runner of one
//      or two slots: by running jobs alone, a league backlog (4) kept both slots of such a runner
//      from a certification (1) for as long as the league had work. Counting only since all of
//      them waited does not hold against a class what it ran while nobody else wanted the slots;
//   2. within evaluations and hosted play, the requester with the fewest running jobs goes first,
//      ties to the oldest job; a requester at the class's cap waits for their own jobs to end;
//   3. within a class (and requester), the oldest job first.
// A class with a backlog therefore gets at least its weight's part of the slots that free up,
// and one requester's backlog takes turns with every other requester's work instead of going
// ahead of it. Pure: the lease (fair-lease.ts) and the queue positions (queue-position.ts) both
// walk the queue with it, so what a user is shown is the order the runners are handed.
import { SHARE_CLASSES, type QueueShares, type ShareClass } from "./queue-shares.ts";

export interface QueuedJob {
  id: string;
  shareClass: ShareClass;
  /** The requester; only evaluations and play are shared out per requester. */
  owner: string;
  createdAt: string;
  /** Breaks ties of age: jobs queued in one transaction share a timestamp, and episode lists
   * order them by their episode's id, so the queue does too. */
  episodeId: string;
}

/** Running (leased) jobs of one class and requester. */
export interface RunningCount {
  shareClass: ShareClass;
  owner: string;
  n: number;
}

/** How far back what ended counts at most, however long the classes have all been waiting. */
export const SHARE_WINDOW_MS = 15 * 60_000;

/**
 * Since when the classes with queued jobs have all been waiting: the newest of their oldest
 * queued jobs' times, at most SHARE_WINDOW_MS ago. What each class ran since then is what it was
 * given while the others waited.
 */
export function contentionSince(queued: readonly QueuedJob[], now: Date): string {
  const oldest = new Map<ShareClass, string>();
  for (const job of queued) {
    const seen = oldest.get(job.shareClass);
    if (seen === undefined || job.createdAt < seen) oldest.set(job.shareClass, job.createdAt);
  }
  let since = new Date(now.getTime() - SHARE_WINDOW_MS).toISOString();
  for (const at of oldest.values()) if (at > since) since = at;
  return since;
}

/**
 * The classes shared out per requester, each under a per-user cap: evaluations, and hosted play
 * (one user's idle play sessions held every live slot of the quick start's runner for an hour).
 */
const PER_REQUESTER: ReadonlySet<ShareClass> = new Set(["evaluation", "play"]);

const older = (a: QueuedJob, b: QueuedJob) =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.episodeId < b.episodeId);

/** One requester's (or, outside evaluations and play, one class's) jobs, oldest first. */
interface Lane {
  jobs: QueuedJob[];
  next: number;
}

const head = (lane: Lane): QueuedJob | undefined => lane.jobs[lane.next];

export class FairOrder {
  private readonly lanes = new Map<ShareClass, Map<string, Lane>>();
  private readonly byClass = new Map<ShareClass, number>();
  private readonly byOwner = new Map<string, number>();
  private readonly shares: QueueShares;
  private readonly capped: boolean;
  private readonly ended: Partial<Record<ShareClass, number>>;

  /**
   * `queued` in any order; `ended`: each class's jobs that ended since contentionSince(queued).
   * `capped` false orders without the per-user cap (a projection of the order over time: the
   * cap bounds how many run at once, not whose turn comes first).
   */
  constructor(
    shares: QueueShares,
    running: readonly RunningCount[],
    queued: readonly QueuedJob[],
    options: { ended?: Partial<Record<ShareClass, number>>; capped?: boolean } = {},
  ) {
    this.shares = shares;
    this.capped = options.capped ?? true;
    this.ended = options.ended ?? {};
    for (const r of running) this.count(r.shareClass, r.owner, r.n);
    const sorted = [...queued].sort((a, b) => (older(a, b) ? -1 : older(b, a) ? 1 : 0));
    for (const job of sorted) {
      const lanes = this.lanes.get(job.shareClass) ?? new Map<string, Lane>();
      this.lanes.set(job.shareClass, lanes);
      const key = this.laneKey(job);
      const lane = lanes.get(key) ?? { jobs: [], next: 0 };
      lanes.set(key, lane);
      lane.jobs.push(job);
    }
  }

  /** The requester's jobs of a class shared out per requester, running (or taken) now. */
  ownerRunning(owner: string, shareClass: ShareClass = "evaluation"): number {
    return this.byOwner.get(`${shareClass}\u0000${owner}`) ?? 0;
  }

  classRunning(shareClass: ShareClass): number {
    return this.byClass.get(shareClass) ?? 0;
  }

  /** The job the next free slot takes, or undefined when none may go now. */
  peek(): QueuedJob | undefined {
    let best: { job: QueuedJob; load: number } | undefined;
    for (const shareClass of SHARE_CLASSES) {
      const job = this.classHead(shareClass);
      if (!job) continue;
      // The load it would have with one more running: with nothing running anywhere (a runner of
      // one slot, every time it frees), the class served least still goes first, not the oldest job.
      const served = this.classRunning(shareClass) + (this.ended[shareClass] ?? 0);
      const load = (served + 1) / this.shares.weights[shareClass];
      if (!best || load < best.load || (load === best.load && older(job, best.job)))
        best = { job, load };
    }
    return best?.job;
  }

  /** Takes `job` (the one peek answered): it now runs, and counts against its class and owner. */
  take(job: QueuedJob): void {
    this.drop(job);
    this.count(job.shareClass, job.owner, 1);
  }

  /** Removes `job` without running it (another runner took it first). */
  drop(job: QueuedJob): void {
    const lane = this.lanes.get(job.shareClass)?.get(this.laneKey(job));
    if (lane && head(lane)?.id === job.id) lane.next += 1;
  }

  private laneKey(job: { shareClass: ShareClass; owner: string }): string {
    return PER_REQUESTER.has(job.shareClass) ? job.owner : "";
  }

  private count(shareClass: ShareClass, owner: string, n: number): void {
    this.byClass.set(shareClass, this.classRunning(shareClass) + n);
    if (PER_REQUESTER.has(shareClass))
      this.byOwner.set(`${shareClass}\u0000${owner}`, this.ownerRunning(owner, shareClass) + n);
  }

  /** The most jobs of the class one requester may run at once (per-requester classes only). */
  private capOf(shareClass: ShareClass): number {
    return shareClass === "play" ? this.shares.playUserCap : this.shares.userCap;
  }

  /** The class's next job: its requester with the fewest running (under the cap), then the oldest. */
  private classHead(shareClass: ShareClass): QueuedJob | undefined {
    let best: { job: QueuedJob; running: number } | undefined;
    for (const lane of this.lanes.get(shareClass)?.values() ?? []) {
      const job = head(lane);
      if (!job) continue;
      const perRequester = PER_REQUESTER.has(shareClass);
      const running = perRequester ? this.ownerRunning(job.owner, shareClass) : 0;
      if (this.capped && perRequester && running >= this.capOf(shareClass)) continue;
      if (!best || running < best.running || (running === best.running && older(job, best.job)))
        best = { job, running };
    }
    return best?.job;
  }
}

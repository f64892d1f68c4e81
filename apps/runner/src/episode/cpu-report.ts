// The CPU side of an episode: how loaded the runner's host was while it played, what each
// runnable used, and whether a seat that ran out of wall clock was starved by the platform.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

import type { EpisodeCpu, RunnerLoad } from "@gauntlet/core";

import type { CpuUsage } from "./runtimes/cpu-share.ts";

/** The host counts as over-committed when its CPUs were at least this busy (all together). */
export const OVER_COMMITTED_BUSY = 0.9;

/** The host's CPU counters at one moment: busy and total jiffies of all cores, and when. */
export interface HostSample {
  busy: number;
  total: number;
  at: number;
}

/** The `cpu` line of /proc/stat; null where it cannot be read (not Linux). */
export function sampleHost(): HostSample | null {
  let text: string;
  try {
    text = readFileSync("/proc/stat", "utf8");
  } catch {
    return null;
  }
  const fields = (text.split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total, at: performance.now() };
}

function loadAverage(): number {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]) || 0;
  } catch {
    return 0;
  }
}

/** The host's load between two samples, and the CPU seconds all its tasks used meanwhile. */
export function runnerLoad(
  from: HostSample | null,
  to: HostSample | null,
): RunnerLoad & { busySeconds: number; wallSeconds: number } {
  const cores = availableParallelism();
  const wallSeconds = from && to ? Math.max(0, (to.at - from.at) / 1000) : 0;
  const dTotal = from && to ? to.total - from.total : 0;
  const busyFraction = dTotal > 0 && from && to ? (to.busy - from.busy) / dTotal : 0;
  const clamped = Math.min(1, Math.max(0, busyFraction));
  return {
    cores,
    busy_fraction: Math.round(clamped * 1000) / 1000,
    load_average: loadAverage(),
    over_committed: clamped >= OVER_COMMITTED_BUSY,
    busySeconds: clamped * cores * wallSeconds,
    wallSeconds,
  };
}

/** The part of its cap a seat must have used or waited for to count as wanting CPU. */
const MIN_DEMAND = 0.25;
/**
 * The part of its cap the others must have left a seat below for the platform to be blamed.
 * Not the whole cap: a user's own spinning seats in two episodes of one 2-core runner make it
 * over-committed and leave each a little less than its cap — counted as starved, a seat that
 * would rather not lose could spin out its clock and have its episode voided. Below three
 * quarters of its cap it takes more spinners than cores by a third.
 */
const STARVED_BELOW = 0.75;

/**
 * Whether the platform, not the seat, is to blame for a seat that ran out of wall clock: the host
 * was over-committed, and what every other task used of its CPUs left this seat less than three
 * quarters of its cap, while it wanted CPU (it used, or waited ready to run, a quarter of its cap at least: a
 * starved seat waits where an idle one sleeps). A seat that spun alone used its cap itself (the
 * others left it the rest), and a seat that only slept asked for nothing: both timeouts stay
 * their own. `seatSeconds`: how long the seat ran (its wall clock, when that ran out).
 */
export function starvedByPlatform(
  load: ReturnType<typeof runnerLoad>,
  seat: Pick<CpuUsage, "cpuSeconds" | "waitingSeconds"> | null,
  cap: number | null,
  seatSeconds: number = load.wallSeconds,
): boolean {
  if (!load.over_committed || load.wallSeconds <= 0) return false;
  // Unmeasured (no cpu group), nobody can tell whether it wanted CPU: its timeout is its own.
  if (seat === null) return false;
  const cpus = Math.min(cap ?? 1, load.cores);
  // Its demand is judged over its own life (its wall clock), not the episode's: a seat started
  // late on a loaded host lived only part of it, and its demand looked small against the whole.
  const life = Math.min(seatSeconds, load.wallSeconds);
  if (seat.cpuSeconds + (seat.waitingSeconds ?? 0) < MIN_DEMAND * cpus * life) return false;
  // What the others left is known over the episode only: as a rate, against the cap's.
  const share = cpus * load.wallSeconds;
  const others = load.busySeconds - seat.cpuSeconds;
  const leftForSeat = load.cores * load.wallSeconds - others;
  return leftForSeat < STARVED_BELOW * share;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The episode's CPU record: per seat and the game, the cap, the runner's load. */
export function episodeCpu(input: {
  game: CpuUsage | null | undefined;
  seats: (CpuUsage | null | undefined)[];
  cap: number | null;
  load: RunnerLoad;
  unmeasured: string | null;
}): EpisodeCpu {
  const seconds = (u: CpuUsage | null | undefined) => (u ? round(u.cpuSeconds) : null);
  const seats = input.seats.map(seconds);
  const game = seconds(input.game);
  const missing = game === null || seats.some((s) => s === null);
  return {
    seats,
    game,
    cpus_per_runnable: input.cap,
    unmeasured: missing ? (input.unmeasured ?? "no CPU group could be made on this runner") : null,
    runner: {
      cores: input.load.cores,
      busy_fraction: input.load.busy_fraction,
      load_average: input.load.load_average,
      over_committed: input.load.over_committed,
    },
  };
}

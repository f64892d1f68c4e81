// How an episode ended, as verdicts: completed with results, or failed with a type and a reason —
// a halt (deadline, cancel), a resource limit, a seat's overtime, a port taken, a seat the platform
// starved, or what the game's exit left (its declaration, its results, or neither).
import type { ValidateFunction } from "ajv";

import type { EpisodeErrorInfo, EpisodeResults } from "@gauntlet/core";

import { starvedByPlatform, type runnerLoad } from "./cpu-report.ts";
import { readFailure, readResults } from "./episode-files.ts";
import type { CpuUsage } from "./runtimes/cpu-share.ts";
import type { LimitHit } from "./runtimes/limits.ts";
import type { ExitStatus } from "./runtimes/runtime.ts";
import type { RunEpisodeInput } from "./types.ts";

export type Verdict =
  { status: "completed"; results: EpisodeResults } | ({ status: "failed" } & EpisodeErrorInfo);
export type Halt = "timeout" | "cancelled";
/** A runnable that ran into a resource limit: which one, and its slot (null for the game). */
export type Breach = { type: "limit"; hit: LimitHit; slot: number | null };

export function failed(
  error_type: EpisodeErrorInfo["error_type"],
  error: string,
  failed_policy_index: number | null = null,
): Verdict {
  return { status: "failed", error_type, error, failed_policy_index };
}

export function describeExit(status: ExitStatus): string {
  if (status.error !== undefined) return `could not start (${status.error})`;
  return status.signal !== null
    ? `was killed by ${status.signal}`
    : `exited with code ${status.code ?? "?"}`;
}

/**
 * The deadline and the caller's signal, as one promise that settles with why the episode must stop.
 */
export function haltOn(deadlineMs: number, signal: AbortSignal | undefined) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let reason: Halt | null = null;
  const reached = new Promise<Halt>((resolve) => {
    const stop = (why: Halt) => {
      reason ??= why;
      resolve(reason);
    };
    // setTimeout fires at once past 2^31 - 1 ms; a longer budget is as good as none.
    timer = setTimeout(() => stop("timeout"), Math.min(Math.max(0, deadlineMs), 2 ** 31 - 1));
    onAbort = () => stop("cancelled");
    if (signal?.aborted) stop("cancelled");
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  return {
    reached,
    reason: () => reason,
    dispose() {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    },
  };
}

export function breachVerdict(breach: Breach): Verdict {
  const who = breach.slot === null ? "the game" : `the player in slot ${breach.slot}`;
  return failed(breach.hit.error_type, `${who} ${breach.hit.what}`, breach.slot);
}

/**
 * Players still running at their wall clock: the seat silent longest (by what it last sent the
 * game; never is longest, the lower slot first) is blamed. Where the runner cannot tell (docker)
 * a seat is named only when it is the only one still running.
 */
export function overtimeVerdict(
  running: number[],
  limitMs: number,
  heardFrom: (slot: number) => number | null | undefined,
): Verdict {
  const heard = running.map((slot) => ({ slot, at: heardFrom(slot) }));
  const known = heard.every((h) => h.at !== undefined);
  const quietest = known
    ? heard.reduce<{ slot: number; at: number | null | undefined } | null>(
        (best, h) => (best === null || (h.at ?? -Infinity) < (best.at ?? -Infinity) ? h : best),
        null,
      )
    : heard.length === 1
      ? (heard[0] ?? null)
      : null;
  const seconds = `wall-clock limit of ${limitMs / 1000} s`;
  if (quietest !== null)
    return failed(
      "policy_timeout",
      `the player in slot ${quietest.slot} was still running after its ${seconds}${quietest.at === null ? ", and had sent the game nothing" : ", the seat the game had heard from least recently"}`,
      quietest.slot,
    );
  return failed(
    "policy_timeout",
    `the players in slots ${running.join(", ")} were still running after their ${seconds}; which one the game waited for is not known on this runtime`,
  );
}

export function haltVerdict(why: Halt, deadlineMs: number): Verdict {
  return why === "timeout"
    ? failed("timeout", `the episode did not end within its ${deadlineMs} ms deadline`)
    : failed("cancelled", "the episode was cancelled");
}

/**
 * On the process runtime the game listens on a port of the runner's host, which another program
 * may take between the runner choosing it and the game binding it: a game that died of that
 * failed for no fault of its own or of a seat, and is tried again (infrastructure). Elsewhere
 * each episode has a network of its own, so a port in use there is the game's own doing.
 */
export function portTaken(
  runtime: RunEpisodeInput["runtime"],
  verdict: Verdict,
  log: () => string,
): Verdict {
  if (runtime !== "process" || verdict.status !== "failed") return verdict;
  if (verdict.error_type !== "game_crashed" && verdict.error_type !== "game_unhealthy")
    return verdict;
  if (!/EADDRINUSE|address already in use/i.test(log())) return verdict;
  return failed("infrastructure", `the game's port was taken by another program: ${verdict.error}`);
}

/**
 * A seat's wall clock that ran out while the runner was over-committed and the rest of its load
 * left the seat less than its cap: the platform's doing, not the seat's — infrastructure, which
 * is retried and never scored.
 */
export function platformTimeout(
  verdict: Verdict,
  load: ReturnType<typeof runnerLoad>,
  seats: (CpuUsage | null)[],
  cap: number | null,
  seatSeconds: number,
): Verdict {
  if (verdict.status !== "failed" || verdict.error_type !== "policy_timeout") return verdict;
  const slot = verdict.failed_policy_index;
  const used = slot === null ? null : (seats[slot] ?? null);
  if (!starvedByPlatform(load, used, cap, seatSeconds)) return verdict;
  return failed(
    "infrastructure",
    `${verdict.error}; but the runner was over-committed (its ${load.cores} CPUs ${Math.round(load.busy_fraction * 100)}% busy) and left the seat less than its ${cap ?? 1}-CPU share, so the episode is tried again`,
  );
}

/** The last lines of a log, for an error message: at most 20 lines and 2,000 characters. */
export function logTail(log: string): string {
  const lines = log.trimEnd().split("\n").slice(-20).join("\n");
  return lines.length > 2_000 ? `…${lines.slice(-2_000)}` : lines || "(empty)";
}

/** After the game's exit: its declaration, its results, or its failure to give either. */
export async function judge(
  workDir: string,
  exit: ExitStatus,
  validate: ValidateFunction,
  slots: number,
): Promise<Verdict> {
  const failure = await readFailure(workDir, slots);
  if (failure.found) {
    if (!failure.ok)
      return failed(
        "results_invalid",
        `the player-failure declaration is invalid: ${failure.problem}`,
      );
    return failed("player_failure", failure.value.message, failure.value.failed_policy_index);
  }
  const results = await readResults(workDir, validate, slots);
  if (results.found) {
    if (!results.ok)
      return failed("results_invalid", `the results are invalid: ${results.problem}`);
    return { status: "completed", results: results.value };
  }
  if (exit.code === 0)
    return failed(
      "results_invalid",
      "the game exited without writing results or a player-failure declaration",
    );
  return failed(
    "game_crashed",
    `the game ${describeExit(exit)} without writing results; see the game log`,
  );
}

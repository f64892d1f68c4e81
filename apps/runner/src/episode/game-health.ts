// The game's start: /healthz polled until it answers 200, looking first whether the game listens
// at all (where the runtime can tell), and giving up when the game exits or the episode must end.
import { describeExit, failed, haltVerdict, type Halt, type Verdict } from "./episode-verdicts.ts";
import { delay } from "./runtimes/process.ts";
import type { ExitStatus, Runtime, StartedRunnable } from "./runtimes/runtime.ts";

const HEALTH_POLL_MS = 20;
/** Between looks at whether the game listens (where the runtime can tell): a file read each. */
const LISTEN_POLL_MS = 5;

/** Polls /healthz until 200; fails early when the game exits, and stops when the episode must. */
export async function waitHealthy(
  runtime: Runtime,
  game: StartedRunnable,
  timeoutMs: number,
  halt: { reached: Promise<Halt>; reason: () => Halt | null },
  deadlineMs: number,
): Promise<"healthy" | Verdict> {
  let exit = null as ExitStatus | null; // set when the game exits
  void game.exited.then((status) => (exit = status));
  const until = performance.now() + timeoutMs;
  let last = "no answer";
  for (;;) {
    const why = halt.reason();
    if (why) return haltVerdict(why, deadlineMs);
    if (exit !== null)
      return failed("game_unhealthy", `the game ${describeExit(exit)} before it answered /healthz`);
    const remaining = until - performance.now();
    if (remaining <= 0)
      return failed(
        "game_unhealthy",
        `the game did not answer 200 on /healthz within ${timeoutMs} ms (last: ${last})`,
      );
    // Nothing listens yet: look again soon, without a request that cannot succeed.
    if ((await game.listening?.()) === false) {
      last = "not listening";
      await Promise.race([delay(LISTEN_POLL_MS), game.exited, halt.reached]);
      continue;
    }
    try {
      const url = await runtime.gameUrl(game);
      const response = await fetch(`${url}/healthz`, {
        signal: AbortSignal.timeout(Math.ceil(Math.min(1_000, remaining))),
      });
      await response.body?.cancel();
      if (response.status === 200) return "healthy";
      last = `status ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      last = cause ?? (error as Error).name;
    }
    await Promise.race([delay(HEALTH_POLL_MS), game.exited, halt.reached]);
  }
}

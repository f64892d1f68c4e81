// An HTTP load generator shared by the benchmarks, in a worker thread so that it does not share
// the server's event loop: `concurrency` keep-alive loops of GET {url} for `seconds`, counting statuses.
import { parentPort, workerData } from "node:worker_threads";

export interface LoadOptions {
  url: string;
  token: string | null;
  concurrency: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  statuses: Record<number, number>;
  elapsedMs: number;
}

async function run(options: LoadOptions): Promise<LoadResult> {
  const statuses: Record<number, number> = {};
  let requests = 0;
  const headers: Record<string, string> = options.token
    ? { authorization: `Bearer ${options.token}` }
    : {};
  const started = performance.now();
  const until = started + options.seconds * 1000;
  async function loop(): Promise<void> {
    while (performance.now() < until) {
      const res = await fetch(options.url, { headers });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      requests += 1;
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  return { requests, statuses, elapsedMs: performance.now() - started };
}

if (parentPort) parentPort.postMessage(await run(workerData as LoadOptions));

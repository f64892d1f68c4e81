// `pnpm reliability`: a mixed workload against a started server for a configured time
// (GAUNTLET_SOAK_SECONDS, default 1800): reads of standings, rounds and leagues, writes of
// policy versions and submissions, league play (rounds triggered and run by a scripted runner)
// and WebSocket watchers. Prints requests, errors by status, p50/p99 latency, memory and open
// handles over time, then a longer fuzz run (GAUNTLET_FUZZ_CASES, default 40 per operation).
// Exits 1 on any answer ≥ 500 or a heap that grew by more than half after warm-up.
import { bestEffort } from "@gauntlet/core";

import { client, type HttpResult } from "../../testing/http.ts";
import { startTestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  scriptedRunner,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { openSocket, type TestSocket } from "../../testing/test-socket.ts";
import { runFuzz } from "./run-fuzz.ts";

const seconds = Number(process.env.GAUNTLET_SOAK_SECONDS ?? 1800);
const reportEvery = Number(process.env.GAUNTLET_SOAK_REPORT_SECONDS ?? 30) * 1000;
const fuzzCases = Number(process.env.GAUNTLET_FUZZ_CASES ?? 40);

const t = await startTestServer({
  env: { GAUNTLET_RATE_LIMIT_MODE: "off", GAUNTLET_SCHEDULER: "off" },
});
const tl = await createTestLeague(t, { divisions: [{ name: "Premier", level: 1 }] });
const players: TestPlayer[] = [];
for (const name of ["Ada", "Bo", "Cy", "Di"]) players.push(await tl.addPlayer(name));
for (const p of players) await tl.submit(p);
const runner = await scriptedRunner(t);
const commissioner = client(t.url, tl.commissioner.token);
const anonymous = client(t.url);
const division = tl.divisions[0]?.id ?? "";

const latencies: number[] = [];
const byStatus: Record<string, number> = {};
let requests = 0;
async function timed<T>(call: () => Promise<HttpResult<T>>): Promise<HttpResult<T> | null> {
  const start = performance.now();
  try {
    const res = await call();
    latencies.push(performance.now() - start);
    requests += 1;
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    return res;
  } catch {
    countFailed();
    return null;
  }
}

/** A call that got no answer it could use: counted with the failed requests, which fail the soak. */
function countFailed(): null {
  requests += 1;
  byStatus.failed = (byStatus.failed ?? 0) + 1;
  return null;
}

const deadline = Date.now() + seconds * 1000;
const running = () => Date.now() < deadline;

async function reader(): Promise<void> {
  while (running()) {
    await timed(() => anonymous.get(`/v2/divisions/${division}/leaderboard`));
    await timed(() => anonymous.get(`/v2/rounds?league_id=${tl.league.id}`));
    await timed(() => anonymous.get("/v2/leagues"));
  }
}

async function writer(): Promise<void> {
  let n = 0;
  while (running()) {
    const player = players[n % players.length];
    n += 1;
    if (!player) continue;
    const version = await tl
      .addVersion(player, `soak-${player.name.toLowerCase()}`)
      .catch(countFailed);
    if (version)
      await timed(() =>
        commissioner.post("/v2/league-submissions", {
          league_id: tl.league.id,
          policy_version_id: version,
          player_id: player.id,
        }),
      );
  }
}

async function play(): Promise<void> {
  const scorer = byStrength({ Ada: 4, Bo: 3, Cy: 2, Di: 1 });
  while (running()) {
    await timed(() => commissioner.post(`/v2/leagues/${tl.league.id}/trigger-round`, {}));
    await runner.runQueued(scorer).catch(countFailed);
  }
}

async function watchers(): Promise<void> {
  let sockets: TestSocket[] = [];
  while (running()) {
    for (const s of sockets) s.close();
    sockets = [];
    for (let i = 0; i < 4; i++) {
      const s = openSocket(t.url);
      // Under load a socket may fail to open or subscribe: that is part of what the soak measures.
      await bestEffort(s.opened);
      await bestEffort(s.subscribe([`league:${tl.league.id}`]));
      sockets.push(s);
    }
    // Reopened every 20 s: connects and disconnects are part of the load.
    const until = Math.min(deadline, Date.now() + 20_000);
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, 1000));
      for (const s of sockets) s.messages.length = 0;
    }
  }
  for (const s of sockets) s.close();
}

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
const samples: { at: number; heapMb: number; rssMb: number; handles: number }[] = [];
const started = Date.now();
function report(): void {
  globalThis.gc?.();
  const mem = process.memoryUsage();
  const sample = {
    at: Math.round((Date.now() - started) / 1000),
    heapMb: mb(mem.heapUsed),
    rssMb: mb(mem.rss),
    handles: process.getActiveResourcesInfo().length,
  };
  samples.push(sample);
  const window = latencies.splice(0);
  process.stdout.write(
    `t=${sample.at}s requests=${requests} by status ${JSON.stringify(byStatus)} p50=${percentile(window, 50).toFixed(1)}ms p99=${percentile(window, 99).toFixed(1)}ms heap=${sample.heapMb}MB rss=${sample.rssMb}MB handles=${sample.handles}\n`,
  );
}
report();
const ticker = setInterval(report, reportEvery);
await Promise.all([reader(), reader(), writer(), play(), watchers()]);
clearInterval(ticker);
report();

const warm = samples[Math.min(1, samples.length - 1)];
const last = samples[samples.length - 1];
const errors500 = Object.entries(byStatus)
  .filter(([s]) => Number(s) >= 500 || s === "failed")
  .reduce((a, [, n]) => a + n, 0);
process.stdout.write(
  `soak: ${seconds}s, ${requests} requests, ${errors500} answers ≥ 500 or failed, heap after warm-up ${warm?.heapMb}MB → end ${last?.heapMb}MB, handles ${warm?.handles} → ${last?.handles}\n`,
);

const fuzz = await runFuzz(t, [undefined, t.adminToken, tl.commissioner.token], {
  seed: Date.now() % 100000,
  generated: fuzzCases,
  overLimitOperations: 100,
});
process.stdout.write(
  `fuzz: ${fuzz.operations} operations, ${fuzz.cases} cases, responses ≥ 500: ${fuzz.atLeast500}, problems: ${fuzz.problems.length}\n${fuzz.problems.slice(0, 20).join("\n")}\n`,
);
await t.close();
const grew = warm && last ? last.heapMb > warm.heapMb * 1.5 + 10 : false;
process.exit(errors500 > 0 || fuzz.problems.length > 0 || grew ? 1 : 0);

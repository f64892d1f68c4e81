// A Premier round of the demo league timed beside a live game (issue 31): one browser game used
// to hold the embedded runner for the whole game. The server starts as the quick start starts it
// (its own process, a fresh data directory, the demo league, the embedded runner with its
// defaults: the sandbox runtime, its capacity from the cores, the live-game lane); the bench signs
// in as the first admin through `/cli-login`, pauses the league's own rounds and starts Premier
// rounds itself one after the other (trigger-round), so that every round timed is the same size
// and nothing else queues beside it. Blocks alternate: rounds with no live game, then rounds for
// as long as a person's game is open and held (started with `gauntlet play`'s call, the person's
// socket connected as the browser's page connects it, no move made, so the game waits out each
// turn's 10 s clock), then no live game again, and so on. Each block also queues an evaluation
// and times it. A round's time is from its creation to its settlement (`created_at` →
// `completed_at`, as the API records them; settling waits for the scheduler's 1 s tick); the
// runner's slot use is sampled every second from the running episodes.
//
//   node bench/live-lane/run.ts        (3 rounds a block without a game, 2 live games of 12 turns)
//   BENCH_ROUNDS=5 BENCH_CYCLES=3 BENCH_TURNS=40 node bench/live-lane/run.ts
//     (40 turns: the variant's own length, issue 31's 400 s game)
//
// Not a test: numbers depend on the machine.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { createClient } from "@gauntlet/sdk";

/** Rounds in each block without a live game. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Live games, each held for its whole length, with blocks without one around them. */
const CYCLES = Number(process.env.BENCH_CYCLES ?? 2);
/** Turns of each live game: each waits out the person's clock, so a game holds TURNS × 10 s. */
const TURNS = Number(process.env.BENCH_TURNS ?? 12);
const EVAL_EPISODES = Number(process.env.BENCH_EVAL_EPISODES ?? 4);
/** The person's turn clock, as issue 31's game had it (`gauntlet play --config`). */
const TURN_TIMEOUT_MS = 10_000;
const MAIN = join(import.meta.dirname, "../../apps/server/src/cli/main.ts");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

// --- the server, as `pnpm start` runs it (--verbose for the runner's start line) -------------
const dir = mkdtempSync(join(tmpdir(), "gauntlet-bench-live-lane-"));
const dataDir = join(dir, "data");
const server = spawn(
  process.execPath,
  [MAIN, "start", "--port", "0", "--data-dir", dataDir, "--verbose"],
  { stdio: ["ignore", "pipe", "pipe"] },
);
let out = "";
const lines: string[] = [];
server.stdout.on("data", (chunk: Buffer) => {
  out += chunk.toString();
  lines.push(...chunk.toString().split("\n"));
});
server.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString()}`));
const exited = new Promise<never>((_, reject) =>
  server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${out.slice(-800)}`))),
);
const stop = async () => {
  server.removeAllListeners("exit");
  server.kill("SIGINT");
  await sleep(3000);
  server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
};

async function until<T>(what: string, get: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Promise.race([sleep(200), exited]);
  }
}

try {
  await until("the demo league", () => (out.includes("Demo league:") ? true : undefined), 180_000);
  const url = /API \(alt host, at the root\):\s+(\S+)/.exec(out)?.[1];
  if (url === undefined) throw new Error(`no address in the banner: ${out}`);
  const runnerLine = await until(
    "the runner's start line",
    () => lines.find((l) => l.includes("runner started")),
    120_000,
  );
  const capacity = Number(/\bcapacity=(\d+)/.exec(runnerLine)?.[1] ?? NaN);
  const interactiveCapacity = Number(/interactive_capacity=(\d+)/.exec(runnerLine)?.[1] ?? NaN);

  // --- signing in as the first admin, as the browser's sign-in page does -----------------------
  const credentials = readFileSync(join(dataDir, "first-admin.txt"), "utf8");
  const email = /email: (\S+)/.exec(credentials)?.[1] ?? "";
  const password = /password: (\S+)/.exec(credentials)?.[1] ?? "";
  const callback = "http://127.0.0.1:9/callback";
  const signIn = await fetch(`${url}/cli-login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, callback }),
  });
  const token = new URL(signIn.headers.get("location") ?? callback).searchParams.get("token");
  if (token === null) throw new Error(`sign-in answered ${signIn.status}, no token`);
  const api = createClient({ env: {}, useSavedCredentials: false, baseUrl: url, token });

  const [league] = await api.request("listLeagues", {});
  if (league === undefined) throw new Error("no demo league");
  const divisions = await api.request("listDivisions", { league_id: league.id });
  const premier = divisions.find((d) => d.name === "Premier");
  if (premier === undefined) throw new Error("no Premier division");
  const coworldId = league.game.coworld_id;
  if (coworldId === null) throw new Error("the demo's game has no coworld");
  const champions = await api.request("listLeaguePolicyMemberships", {
    league_id: league.id,
    division_id: premier.id,
    champions_only: true,
    active_only: true,
  });
  const versions = champions.map((m) => m.policy_version.id);
  const [opponent, second] = versions;
  if (opponent === undefined || second === undefined) throw new Error("too few Premier players");

  // The league's own pace is paused: the bench starts each Premier round and waits for it. Round
  // robin with two episodes a pairing keeps every round the same size (about what adaptive
  // seating plays: two tables per entrant) and never settles into quiet.
  await api.request("setRoundsPaused", { league_id: league.id, body: { paused: true } });
  const settings = await api.request("getLeagueSettings", { league_id: league.id });
  const ladder = { ...(settings.ladder ?? {}), seating: "round_robin", episodes_per_pairing: 2 };
  await api.request("replaceLeagueSettings", {
    league_id: league.id,
    body: { ...settings, ladder },
  });

  // --- the runner's slots, sampled from the running episodes ------------------------------------
  let liveEpisode: string | null = null;
  const samples: { at: number; batch: number; live: number }[] = [];
  const stopSampling = new AbortController();
  const sampler = (async () => {
    while (!stopSampling.signal.aborted) {
      try {
        const running = await api.request("listEpisodeRequests", {
          status: "running",
          limit: 100,
        });
        const live = running.entries.filter((e) => e.id === liveEpisode).length;
        samples.push({ at: Date.now(), batch: running.entries.length - live, live });
      } catch {
        // A missed sample (a busy server) is only a gap.
      }
      await sleep(1000);
    }
  })();
  const slotUse = (from: number, to: number) => {
    const inside = samples.filter((s) => s.at >= from && s.at <= to);
    const mean = inside.reduce((sum, s) => sum + s.batch, 0) / Math.max(1, inside.length);
    return {
      mean,
      peak: Math.max(0, ...inside.map((s) => s.batch)),
      live: Math.max(0, ...inside.map((s) => s.live)),
    };
  };

  async function activeRoundsDone() {
    for (;;) {
      const running = await api.request("listRounds", { league_id: league?.id, limit: 10 });
      if (running.entries.every((r) => r.status === "completed" || r.status === "failed")) return;
      await sleep(1000);
    }
  }

  interface Timed {
    block: string;
    what: string;
    ms: number;
    episodes: number;
    batchMean: number;
    batchPeak: number;
    live: number;
    maxQueuePosition: number | null;
    besideLive: boolean | null;
  }
  const timed: Timed[] = [];
  const liveStillRunning = async () =>
    liveEpisode === null
      ? null
      : (await api.request("getEpisodeRequest", { episode_request_id: liveEpisode })).status ===
        "running";

  async function round(block: string, n: number) {
    let started;
    for (;;) {
      started = await api.request("triggerRound", {
        league_id: league?.id ?? "",
        body: { division_id: premier?.id },
      });
      if (started.rounds.length > 0) break;
      if (started.skipped.some((s) => s.reason !== "round_running"))
        throw new Error(`no round: ${JSON.stringify(started.skipped)}`);
      await sleep(500);
    }
    const [r] = started.rounds;
    if (r === undefined) throw new Error("no round");
    let maxQueuePosition: number | null = null;
    for (;;) {
      const now = await api.request("getRound", { round_id: r.id });
      if (now.waiting)
        maxQueuePosition = Math.max(maxQueuePosition ?? 0, now.waiting.queue_position);
      if (now.status === "completed" || now.status === "failed") {
        const from = Date.parse(now.created_at);
        const to = Date.parse(now.completed_at ?? new Date().toISOString());
        const episodes = await api.request("listEpisodeRequests", { round_id: r.id, limit: 100 });
        const use = slotUse(from, to);
        const entry: Timed = {
          block,
          what: `round ${n} (${now.status})`,
          ms: to - from,
          episodes: episodes.entries.length,
          batchMean: use.mean,
          batchPeak: use.peak,
          live: use.live,
          maxQueuePosition,
          besideLive: await liveStillRunning(),
        };
        timed.push(entry);
        print(entry);
        return;
      }
      await sleep(500);
    }
  }

  async function evaluation(block: string) {
    const created = await api.request("createExperienceRequest", {
      body: {
        target: { division_id: premier?.id },
        roster: [
          { player: { policy_ref: opponent ?? "" } },
          { player: { policy_ref: second ?? "" } },
        ],
        num_episodes: EVAL_EPISODES,
      },
    });
    for (;;) {
      const now = await api.request("getExperienceRequest", { experience_request_id: created.id });
      if (now.status === "completed" || now.status === "failed" || now.status === "cancelled") {
        const from = Date.parse(now.created_at);
        const to = Date.parse(now.completed_at ?? new Date().toISOString());
        const use = slotUse(from, to);
        const entry: Timed = {
          block,
          what: `evaluation (${now.status})`,
          ms: to - from,
          episodes: now.episode_count,
          batchMean: use.mean,
          batchPeak: use.peak,
          live: use.live,
          maxQueuePosition: null,
          besideLive: await liveStillRunning(),
        };
        timed.push(entry);
        print(entry);
        return;
      }
      await sleep(500);
    }
  }

  const print = (t: Timed) =>
    console.log(
      `${t.block.padEnd(16)} ${t.what.padEnd(24)} ${seconds(t.ms).padStart(7)} s ${String(t.episodes).padStart(4)}  ${t.batchMean.toFixed(2).padStart(5)} / ${String(t.batchPeak).padStart(2)} of ${capacity}   ${String(t.live).padStart(2)} of ${interactiveCapacity}   ${t.maxQueuePosition === null ? "-" : String(t.maxQueuePosition)}${t.block === "live game held" && t.besideLive === false ? "  (the live game ended first)" : ""}`,
    );

  console.log(
    `the demo league's Premier rounds on the embedded runner (capacity ${capacity}, live lane ${interactiveCapacity}), load ${loadAverage()}`,
  );
  console.log(
    `${"block".padEnd(16)} ${"what".padEnd(24)} ${"time".padStart(9)} ${"eps".padStart(4)}  batch mean / peak   live lane   queue pos`,
  );
  await activeRoundsDone();

  // Blocks alternate: no live game, a live game held, …, no live game.
  let roundNumber = 0;
  const offBlock = async () => {
    await evaluation("no live game");
    for (let n = 0; n < ROUNDS; n += 1) await round("no live game", (roundNumber += 1));
  };
  const heldBlock = async (game: number) => {
    // A person's game, opened with `gauntlet play`'s call (its --config: the person's 10 s turn
    // clock, and a shorter game than the variant's 40 turns so that the blocks alternate).
    const session = await api.request("createPlaySession", {
      body: {
        coworld_id: coworldId,
        opponents: [opponent],
        game_config_overrides: { turn_timeout_ms: TURN_TIMEOUT_MS, turns: TURNS },
      },
    });
    liveEpisode = session.episode_request_id;
    // The page's own way in: the socket address in `join_url`'s fragment.
    const socketUrl = decodeURIComponent(/#ws=([^&]+)/.exec(session.join_url ?? "")?.[1] ?? "");
    const socket = new WebSocket(socketUrl);
    let frames = 0;
    let closed: string | null = null;
    // Read through a call: the socket's handler sets it while the loop awaits.
    const over = () => closed !== null;
    socket.addEventListener("message", () => (frames += 1));
    socket.addEventListener("close", (e) => (closed = `${e.code} ${e.reason}`));
    const openedAt = Date.now();
    // The game is on once it has spoken to the person's seat (its welcome); no move is made.
    await until("the live game's first frame", () => (frames > 0 ? true : undefined), 180_000);
    const heldFrom = Date.now();
    console.log(
      `live game ${game} (${session.id}): the person's socket is in, the game started ${seconds(heldFrom - openedAt)} s after the session opened; held, no move made`,
    );
    await evaluation("live game held");
    while (!over()) await round("live game held", (roundNumber += 1));
    console.log(`live game ${game} over after ${seconds(Date.now() - heldFrom)} s (${closed})`);
    liveEpisode = null;
  };
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    await offBlock();
    await heldBlock(cycle);
  }
  await offBlock();

  stopSampling.abort();
  await sampler;
  const mean = (rows: Timed[], pick: (t: Timed) => number = (t) => t.ms) =>
    rows.reduce((s, t) => s + pick(t), 0) / Math.max(1, rows.length);
  const rounds = timed.filter((t) => t.what.startsWith("round"));
  const without = rounds.filter((t) => t.block === "no live game");
  const beside = rounds.filter((t) => t.block === "live game held" && t.besideLive === true);
  const evals = timed.filter((t) => t.what.startsWith("evaluation"));
  const evalWithout = evals.filter((t) => t.block === "no live game");
  const evalBeside = evals.filter((t) => t.block === "live game held" && t.besideLive === true);
  const waited = (rows: Timed[]) => Math.max(0, ...rows.map((t) => t.maxQueuePosition ?? 0));
  console.log(
    `Premier round (${without[0]?.episodes ?? 0} episodes): ${seconds(mean(without))} s with no live game (${without.length} rounds), ${seconds(mean(beside))} s beside a held live game (${beside.length}); ratio ${(mean(beside) / mean(without)).toFixed(2)}; worst queue position ${waited(without)} / ${waited(beside)}`,
  );
  console.log(
    `evaluation of ${EVAL_EPISODES} episodes: ${seconds(mean(evalWithout))} s with no live game (${evalWithout.length}), ${seconds(mean(evalBeside))} s beside it (${evalBeside.length}); ratio ${(mean(evalBeside) / mean(evalWithout)).toFixed(2)}`,
  );
  console.log(
    `runner slots during rounds: batch ${mean(without, (t) => t.batchMean).toFixed(2)} of ${capacity} busy on average with no live game, ${mean(beside, (t) => t.batchMean).toFixed(2)} of ${capacity} beside it (the live game in its own lane: ${Math.max(0, ...beside.map((t) => t.live))} of ${interactiveCapacity})`,
  );
  console.log(`load at the end: ${loadAverage()}`);
} finally {
  await stop();
}

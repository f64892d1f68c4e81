// Issue 13 (the live terminal UI) benchmarks. The server runs in this process with a league of
// four players; the UI (`gauntlet-watch`, apps/tui/src/bin.ts) runs as its own process in a
// pseudo terminal (util-linux `script`), exactly as a person starts it (`gauntlet watch --league
// … --division …`, the CLI from source with its compile cache warm), and this process reads what
// it draws. It prints:
//
//  1. time to first paint with standings: from spawning the UI to every player's name drawn,
//     median of BENCH_PAINTS runs (after one that warms the compile cache), beside the floor: a
//     bare Ink hello (tui/ink-hello.ts) started the same way, in turns with the UI;
//  2. the latency from an episode's completion on the server (the runner's POST …/complete sent)
//     to the frame that shows it (the round's "k/N episodes"), p50 / p99 / max over ≥ 50
//     completions. Target: < 200 ms p99 on loopback;
//  3. the UI's heap (after a full GC) after 100, 1,000, 5,000 and 10,000 live events: it should
//     stay flat, since the feed and the episode list are bounded.
//
//   node bench/tui/run.ts                              (SQLite; DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_ROUNDS=20 BENCH_EVENTS=20000 node bench/tui/run.ts
//
// Not a test: numbers depend on the machine.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

import type { Division, LeasedJob, TriggerRoundResponse } from "@gauntlet/core";
import { withEvents } from "@gauntlet/server/bench";
import {
  client,
  createTestLeague,
  scriptedRunner,
  startTestServer,
} from "@gauntlet/server/testing";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const HEAP_AT = [100, 1_000, 5_000, EVENTS].filter(
  (n, i, all) => n <= EVENTS && all.indexOf(n) === i,
);
const BATCH = 100;
const PATIENCE_MS = 120_000;
const PLAYERS = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"];
const engine = process.env.DATABASE_URL ? "PostgreSQL" : "SQLite";
const PAINTS = Number(process.env.BENCH_PAINTS ?? 5);
const CLI_MAIN = new URL("../../apps/cli/src/main.ts", import.meta.url).pathname;
const INK_HELLO = new URL("./ink-hello.ts", import.meta.url).pathname;
const HEAP_PROBE = new URL("./heap-probe.ts", import.meta.url).pathname;
// Large budgets: the limiter decides every request but never refuses one.
const BASE_ENV = {
  GAUNTLET_SCHEDULER: "off",
  GAUNTLET_USER_CAPACITIES: JSON.stringify({
    requestsPerMinute: 1e9,
    requestsPerHour: 1e9,
    complexityPerMinute: 1e9,
    complexityPerHour: 1e9,
  }),
};

const COLUMNS = 120;
const ROWS = 40;

/**
 * The screen the UI draws on: enough of a VT100 (text, CR/LF, cursor moves, erasing) to replay
 * Ink's output, including its incremental updates that rewrite only the changed end of a line.
 */
class Screen {
  readonly #rows: string[][] = Array.from({ length: ROWS }, () => Array<string>(COLUMNS).fill(" "));
  #x = 0;
  #y = 0;
  #pending = "";

  write(chunk: string): void {
    const data = this.#pending + chunk;
    this.#pending = "";
    let i = 0;
    while (i < data.length) {
      const ch = data[i] ?? "";
      if (ch === "\u001B") {
        const rest = data.slice(i);
        // Terminal escape sequences are control characters by definition.
        /* eslint-disable no-control-regex */
        const csi = /^\u001B\[([?>=]?)([\d;]*)([ -/]*)([@-~])/.exec(rest);
        const osc = /^\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)/.exec(rest);
        const short = /^\u001B[@-Z\\-_=>78]/.exec(rest);
        /* eslint-enable no-control-regex */
        const match = csi ?? osc ?? short;
        if (!match) {
          this.#pending = rest; // an escape cut in two by the pipe: finish it with the next chunk
          return;
        }
        if (csi && csi[1] === "") this.#csi(csi[2] ?? "", csi[4] ?? "");
        i += match[0].length;
        continue;
      }
      const code = ch.codePointAt(0) ?? 0;
      const char = String.fromCodePoint(code);
      i += char.length;
      if (char === "\r") this.#x = 0;
      else if (char === "\n") this.#y = Math.min(ROWS - 1, this.#y + 1);
      else if (code >= 0x20) {
        const row = this.#rows[this.#y];
        if (row && this.#x < COLUMNS) row[this.#x] = char;
        this.#x = Math.min(COLUMNS, this.#x + 1);
      }
    }
  }

  #csi(params: string, final: string): void {
    const numbers = params.split(";").map((p) => (p === "" ? undefined : Number(p)));
    const n = numbers[0] ?? 1;
    const clampY = (y: number) => Math.max(0, Math.min(ROWS - 1, y));
    const clampX = (x: number) => Math.max(0, Math.min(COLUMNS - 1, x));
    const blank = (row: string[] | undefined, from: number, to: number) => {
      if (row) for (let x = from; x < to; x += 1) row[x] = " ";
    };
    switch (final) {
      case "A":
        this.#y = clampY(this.#y - n);
        break;
      case "B":
        this.#y = clampY(this.#y + n);
        break;
      case "C":
        this.#x = clampX(this.#x + n);
        break;
      case "D":
        this.#x = clampX(this.#x - n);
        break;
      case "E":
        this.#y = clampY(this.#y + n);
        this.#x = 0;
        break;
      case "F":
        this.#y = clampY(this.#y - n);
        this.#x = 0;
        break;
      case "G":
        this.#x = clampX(n - 1);
        break;
      case "H":
      case "f":
        this.#y = clampY((numbers[0] ?? 1) - 1);
        this.#x = clampX((numbers[1] ?? 1) - 1);
        break;
      case "K": {
        const mode = numbers[0] ?? 0;
        const row = this.#rows[this.#y];
        if (mode === 0) blank(row, this.#x, COLUMNS);
        else if (mode === 1) blank(row, 0, this.#x + 1);
        else blank(row, 0, COLUMNS);
        break;
      }
      case "J": {
        const mode = numbers[0] ?? 0;
        if (mode === 0) {
          blank(this.#rows[this.#y], this.#x, COLUMNS);
          for (let y = this.#y + 1; y < ROWS; y += 1) blank(this.#rows[y], 0, COLUMNS);
        } else if (mode === 1) {
          for (let y = 0; y < this.#y; y += 1) blank(this.#rows[y], 0, COLUMNS);
          blank(this.#rows[this.#y], 0, this.#x + 1);
        } else for (const row of this.#rows) blank(row, 0, COLUMNS);
        break;
      }
      default:
        break; // colours and modes: nothing to place on the grid
    }
  }

  text(): string {
    return this.#rows.map((row) => row.join("").trimEnd()).join("\n");
  }
}

/** The UI's screen as its output arrives; waits resolve with the arrival time of the chunk that made them true. */
class Terminal {
  readonly #screen = new Screen();
  #waiters: { holds: (text: string) => boolean; resolve: (at: number) => void }[] = [];
  constructor(child: ChildProcess) {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      const at = performance.now();
      this.#screen.write(chunk);
      if (this.#waiters.length === 0) return;
      const text = this.#screen.text();
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.holds(text)) return true;
        w.resolve(at);
        return false;
      });
    });
  }

  text(): string {
    return this.#screen.text();
  }

  async until(what: string, holds: (text: string) => boolean): Promise<number> {
    if (holds(this.text())) return performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const found = new Promise<number>((resolve) => this.#waiters.push({ holds, resolve }));
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the screen never showed ${what}; it shows:\n${this.text()}`)),
        PATIENCE_MS,
      );
    });
    try {
      return await Promise.race([found, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

interface HeapReport {
  pid: number;
  memory?: NodeJS.MemoryUsage;
}

/** The UI's memory after a full GC, asked of the heap probe loaded into it. */
async function heapOf(file: string): Promise<NodeJS.MemoryUsage> {
  const { pid } = JSON.parse(readFileSync(file, "utf8")) as HeapReport;
  const before = readFileSync(file, "utf8");
  process.kill(pid, "SIGUSR2");
  for (;;) {
    const now = readFileSync(file, "utf8");
    if (now !== before) {
      const report = JSON.parse(now) as HeapReport;
      if (report.memory) return report.memory;
    }
    await sleep(20);
  }
}

const dir = mkdtempSync(join(tmpdir(), "gauntlet-bench-tui-"));
const heapFile = join(dir, "heap.json");
const t = await startTestServer({ env: BASE_ENV });
let ui: ChildProcess | undefined;
try {
  const tl = await createTestLeague(t, { settings: { max_episodes_per_round: 1_000 } });
  const division: Division | undefined = tl.divisions[0];
  if (!division) throw new Error("the test league has no division");
  for (const name of PLAYERS) await tl.submit(await tl.addPlayer(name));
  const api = client(t.url, tl.commissioner.token);
  const runner = await scriptedRunner(t);
  const scores = (job: LeasedJob, i: number) =>
    job.players.map((p, seat) => (PLAYERS.indexOf(p.display_name) * 7 + seat + i) % 10);
  const trigger = async () => {
    const started = await api.post<TriggerRoundResponse>(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    const round = started.body.rounds[0];
    if (started.status !== 200 || !round)
      throw new Error(`trigger-round: ${started.status} ${started.text}`);
    return round;
  };
  // One settled round first, so that the standings have their rows.
  await trigger();
  const first = await runner.lease(64);
  for (const [i, job] of first.entries()) await runner.complete(job, scores(job, i));

  // 1. Time to first paint with standings, beside a bare Ink hello's, in turns.
  const env = {
    ...process.env,
    NO_COLOR: "1",
    BENCH_HEAP_FILE: heapFile,
    XDG_CONFIG_HOME: join(dir, "config"),
    NODE_COMPILE_CACHE: join(dir, "compile-cache"),
    GAUNTLET_TOKEN: tl.commissioner.token,
  };
  const inTerminal = (args: string) => {
    const command = `stty cols ${COLUMNS} rows ${ROWS}; exec ${process.execPath} ${args}`;
    const spawnedAt = performance.now();
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      stdio: ["pipe", "pipe", "inherit"],
      env,
    });
    return { child, term: new Terminal(child), spawnedAt };
  };
  const watchArgs = `${CLI_MAIN} --server ${t.url} watch --league '${tl.league.name}' --division '${division.name}'`;
  const hasPlayers = (text: string) => PLAYERS.every((name) => text.includes(name));
  /** One start of `args`: when anything, then `painted`, was on screen; then q, and its exit. */
  const paintOnce = async (args: string, painted: (text: string) => boolean) => {
    const { child, term, spawnedAt } = inTerminal(args);
    try {
      const first = await term.until("anything", (text) => text.trim().length > 0);
      const done = await term.until("the first screen", painted);
      return { first: first - spawnedAt, painted: done - spawnedAt };
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin.write("q");
      await exited;
    }
  };
  const hello: number[] = [];
  const watchFirst: number[] = [];
  const watchPainted: number[] = [];
  for (let i = 0; i <= PAINTS; i += 1) {
    const h = await paintOnce(INK_HELLO, (text) => text.includes("hello from Ink"));
    const w = await paintOnce(watchArgs, hasPlayers);
    if (i === 0) continue; // the first start fills the compile cache, as `pnpm install-cli` does
    hello.push(h.painted);
    watchFirst.push(w.first);
    watchPainted.push(w.painted);
  }
  console.log(
    `Terminal UI benchmarks — ${engine}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; the UI in a 120×40 pseudo terminal\n`,
  );
  console.log(
    `1. Time to first paint (from spawning \`gauntlet watch --league … --division …\`; ${PAINTS} starts each, in turns with a bare Ink hello, compile cache warm)\n`,
  );
  const spread = (values: number[]) => [
    ms(percentile(values, 50)),
    ms(Math.min(...values)),
    ms(Math.max(...values)),
  ];
  console.log(
    table(
      ["frame", "median", "min", "max"],
      [
        ["floor: bare Ink hello painted", ...spread(hello)],
        ["gauntlet watch: first output", ...spread(watchFirst)],
        ["gauntlet watch: standings with every player's name", ...spread(watchPainted)],
      ],
    ),
  );
  console.log(
    `\nstandings painted ${ms(percentile(watchPainted, 50) - percentile(hello, 50))} after the floor (median); target: under 1500 ms`,
  );

  // The UI the rest of the benchmark follows, with the heap probe loaded into it.
  const started = inTerminal(`--expose-gc --import ${HEAP_PROBE} ${watchArgs}`);
  ui = started.child;
  const term = started.term;
  await term.until("the standings with every player", hasPlayers);
  // "● live" while a round plays, "● connected · quiet" between rounds: either is the socket.
  await term.until("the live connection", (text) => /● (live|connected)/.test(text));

  // 2. Completion → changed frame.
  const latencies: number[] = [];
  const answered: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const round = await trigger();
    await term.until(
      `round ${round.round_number} running`,
      (text) =>
        text.includes(`Round ${round.round_number} running`) &&
        text.includes(`0/${first.length} episodes`),
    );
    const jobs = await runner.lease(64);
    for (const [k, job] of jobs.entries()) {
      const shows = `${k + 1}/${jobs.length} episodes`;
      const t0 = performance.now();
      const status = await runner.complete(job, scores(job, k));
      answered.push(performance.now() - t0);
      if (status !== 200) throw new Error(`complete: ${status}`);
      const drawn = await term.until(`"${shows}"`, (text) => text.includes(shows));
      latencies.push(drawn - t0);
    }
  }
  console.log(
    `\n2. Episode completion → the frame showing it (${latencies.length} completions in ${ROUNDS} rounds of ${latencies.length / ROUNDS}; from the completion POST being sent)\n`,
  );
  console.log(
    table(
      ["measure", "p50", "p99", "max"],
      [
        [
          "completion POST answered",
          ms(percentile(answered, 50)),
          ms(percentile(answered, 99)),
          ms(Math.max(...answered)),
        ],
        [
          '→ changed frame ("k/N episodes")',
          ms(percentile(latencies, 50)),
          ms(percentile(latencies, 99)),
          ms(Math.max(...latencies)),
        ],
      ],
    ),
  );

  // 3. Heap after many live events: episodes of the last round settling again (no-ops for the
  // round bar, as a repeated event would be), feed entries and standings changes, in batches
  // through the server's own event log and bus, each batch drawn before the next is sent.
  const lastRound = (
    await api.get<{ entries: { id: string }[] }>(`/v2/rounds?division_id=${division.id}&limit=1`)
  ).body.entries[0];
  const episodes = (
    await api.get<{ entries: { id: string }[] }>(
      `/v2/episode-requests?round_id=${lastRound?.id ?? ""}&limit=100`,
    )
  ).body.entries;
  const divisionRef = {
    id: division.id,
    name: division.name,
    level: division.level,
    type: division.type,
    league_id: tl.league.id,
  };
  const leagueRef = { id: tl.league.id, name: tl.league.name };
  const { db, bus } = t.server.leaguePlay;
  const heaps: string[][] = [];
  const startedAt = performance.now();
  for (let sent = 0; sent < EVENTS;) {
    const upTo = Math.min(EVENTS, sent + BATCH);
    await withEvents(db, bus, async (_trx, emit) => {
      for (let i = sent + 1; i <= upTo; i += 1) {
        const type =
          i % 50 === 25
            ? "standings_changed"
            : i % 5 === 2
              ? "player_promoted"
              : "episode_completed";
        const episode = episodes[i % Math.max(1, episodes.length)]?.id ?? null;
        emit({
          type,
          refs: { league: leagueRef, division: divisionRef },
          roundId: lastRound?.id ?? null,
          episodeRequestId: type === "episode_completed" ? episode : null,
          headline: `bench event ${i}`,
        });
      }
    });
    sent = upTo;
    await term.until(`bench event ${sent}`, (text) => text.includes(`bench event ${sent}`));
    if (HEAP_AT.includes(sent)) {
      await sleep(500); // the standings reloads that the batch asked for
      const memory = await heapOf(heapFile);
      heaps.push([
        sent.toLocaleString("en"),
        mib(memory.heapUsed),
        mib(memory.heapTotal),
        mib(memory.rss),
      ]);
    }
  }
  const rate = EVENTS / ((performance.now() - startedAt) / 1000);
  console.log(
    `\n3. The UI's memory after a full GC, by live events received (batches of ${BATCH}, each drawn before the next; ${Math.round(rate)} events/s end to end)\n`,
  );
  console.log(table(["events", "heap used", "heap total", "rss"], heaps));

  const exited = new Promise<number | null>((resolve) => ui?.once("exit", resolve));
  ui.stdin?.write("q");
  console.log(`\nq: the UI exited with ${String(await exited)}`);
} finally {
  if (ui && ui.exitCode === null) ui.kill("SIGTERM");
  await t.close();
  rmSync(dir, { recursive: true, force: true });
}

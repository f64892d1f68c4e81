// How fast `gauntlet` starts and answers, in one run, beside what it stands in for:
//   - cold `gauntlet --help` (a new process each time) beside bare `node -e ""`, also as
//     `pnpm install-cli` installs it, run from another directory (its compile cache warm, and
//     once with the cache empty);
//   - `gauntlet leaderboard D --json` beside `curl` of the same endpoint.
// The CLI runs from source (src/main.ts, type stripping) and, when built, from dist/ (what
// npm users run). Against the real server (apps/server, temporary SQLite store).
//
//   node bench/cli/run.ts            (pnpm bench cli)
//   BENCH_RUNS=30 node bench/cli/run.ts
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { createClient } from "@gauntlet/sdk";
import { startTestServer } from "@gauntlet/server/testing";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const cliDir = join(import.meta.dirname, "../../apps/cli");
const src = join(cliDir, "src/main.ts");
const dist = join(cliDir, "dist/main.js");

/** One run's wall time; asynchronous, as the server answering it lives in this process. */
function timeOne(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`));
    });
  });
}

async function timeRuns(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const ms = await timeOne(command, args, env, cwd);
    if (i > 0) samples.push(ms); // the first run warms the disk cache
  }
  return samples.sort((a, b) => a - b);
}

const median = (s: number[]) => s[Math.floor(s.length / 2)] ?? NaN;

const home = mkdtempSync(join(tmpdir(), "gauntlet-bench-cli-"));
const server = await startTestServer({
  env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RATE_LIMIT_MODE: "off" },
});
try {
  const sdk = createClient({
    env: {},
    useSavedCredentials: false,
    baseUrl: server.url,
    token: server.adminToken,
    elevated: true, // registering a game by hand is an admin's act
  });
  const game = await sdk.games.create({ body: { name: "Bench" } });
  const league = await sdk.leagues.create({
    body: { name: "Bench", game_id: game.id, public: true, divisions: [{ name: "Top", level: 0 }] },
  });
  const [division] = await sdk.divisions.list({ league_id: league.id });
  if (!division) throw new Error("no division");
  const env = {
    ...process.env,
    NO_COLOR: "1",
    XDG_CONFIG_HOME: home,
    GAUNTLET_SERVER: server.url,
    GAUNTLET_TOKEN: server.adminToken,
  };
  const node = process.execPath;

  const bin = join(home, "bin");
  execFileSync(node, [join(cliDir, "scripts/install-cli.ts"), "--bin-dir", bin], {
    env: { ...env, XDG_CACHE_HOME: home },
    stdio: "ignore",
  });
  const installed = join(bin, "gauntlet");
  const elsewhere = { env: { ...env, XDG_CACHE_HOME: home }, cwd: tmpdir() };
  const emptyCache: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(join(home, "gauntlet/node-compile-cache"), { recursive: true, force: true });
    emptyCache.push(await timeOne(installed, ["--help"], elsewhere.env, elsewhere.cwd));
  }

  const rows: [string, number[]][] = [];
  rows.push(['node -e ""', await timeRuns(node, ["-e", ""], env)]);
  rows.push([
    "gauntlet --help (installed, other dir)",
    await timeRuns(installed, ["--help"], elsewhere.env, elsewhere.cwd),
  ]);
  rows.push(["  the same, compile cache empty", emptyCache.sort((a, b) => a - b)]);
  rows.push(["gauntlet --help (src)", await timeRuns(node, [src, "--help"], env)]);
  if (existsSync(dist))
    rows.push(["gauntlet --help (dist)", await timeRuns(node, [dist, "--help"], env)]);
  const url = `${server.url}/v2/divisions/${division.id}/leaderboard`;
  rows.push([
    "curl leaderboard",
    await timeRuns("curl", ["-sf", "-H", `Authorization: Bearer ${server.adminToken}`, url], env),
  ]);
  rows.push([
    "gauntlet leaderboard --json (src)",
    await timeRuns(node, [src, "leaderboard", division.id, "--json"], env),
  ]);
  if (existsSync(dist))
    rows.push([
      "gauntlet leaderboard --json (dist)",
      await timeRuns(node, [dist, "leaderboard", division.id, "--json"], env),
    ]);

  const nodeMs = median(rows[0]?.[1] ?? []);
  const curlMs = median(rows.find(([n]) => n === "curl leaderboard")?.[1] ?? []);
  console.log(
    `gauntlet CLI, ${RUNS} cold runs each (new process every run), Node ${process.version}, curl ${execFileSync("curl", ["--version"]).toString().split(" ")[1] ?? "?"}`,
  );
  console.log(
    `${"command".padEnd(40)}${"median ms".padStart(11)}${"min ms".padStart(9)}${"× node".padStart(9)}${"× curl".padStart(9)}`,
  );
  for (const [name, samples] of rows) {
    const m = median(samples);
    console.log(
      `${name.padEnd(40)}${m.toFixed(1).padStart(11)}${(samples[0] ?? NaN).toFixed(1).padStart(9)}${(m / nodeMs).toFixed(2).padStart(9)}${(m / curlMs).toFixed(2).padStart(9)}`,
    );
  }
  if (!existsSync(dist))
    console.log(
      "(dist/ not built: `pnpm --filter @gauntlet/cli build` to measure what npm users run)",
    );
  console.log("target: gauntlet --help < 150 ms cold (installed, from another directory)");
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}

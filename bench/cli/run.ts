// How fast `gauntlet` starts and answers, in one run, beside what it stands in for:
//   - cold `gauntlet --help` (a new process each time) beside bare `node -e ""`;
//   - `gauntlet leaderboard D --json` beside `curl` of the same endpoint.
// The CLI runs from source (src/main.ts, type stripping) and, when built, from dist/ (what
// npm users run). Against the real server (apps/server, temporary SQLite store).
//
//   node bench/cli/run.ts            (pnpm bench cli)
//   BENCH_RUNS=30 node bench/cli/run.ts
//
// Not a test: numbers depend on the machine. Run on an otherwise idle machine.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { createClient } from "@gauntlet/sdk";
import { startTestServer } from "@gauntlet/server/testing";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const cliDir = join(import.meta.dirname, "../../apps/cli");
const src = join(cliDir, "src/main.ts");
const dist = join(cliDir, "dist/main.js");

function timeRuns(command: string, args: string[], env: NodeJS.ProcessEnv): number[] {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0)
      throw new Error(
        `${command} ${args.join(" ")} exited ${result.status}: ${result.stderr.toString()}`,
      );
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

  const rows: [string, number[]][] = [];
  rows.push(['node -e ""', timeRuns(node, ["-e", ""], env)]);
  rows.push(["gauntlet --help (src)", timeRuns(node, [src, "--help"], env)]);
  if (existsSync(dist))
    rows.push(["gauntlet --help (dist)", timeRuns(node, [dist, "--help"], env)]);
  const url = `${server.url}/v2/divisions/${division.id}/leaderboard`;
  rows.push([
    "curl leaderboard",
    timeRuns("curl", ["-sf", "-H", `Authorization: Bearer ${server.adminToken}`, url], env),
  ]);
  rows.push([
    "gauntlet leaderboard --json (src)",
    timeRuns(node, [src, "leaderboard", division.id, "--json"], env),
  ]);
  if (existsSync(dist))
    rows.push([
      "gauntlet leaderboard --json (dist)",
      timeRuns(node, [dist, "leaderboard", division.id, "--json"], env),
    ]);

  const nodeMs = median(rows[0]?.[1] ?? []);
  const curlMs = median(rows.find(([n]) => n === "curl leaderboard")?.[1] ?? []);
  console.log(
    `gauntlet CLI, ${RUNS} cold runs each (new process every run), Node ${process.version}, curl ${execFileSync("curl", ["--version"]).toString().split(" ")[1] ?? "?"}`,
  );
  console.log(
    `${"command".padEnd(38)}${"median ms".padStart(11)}${"min ms".padStart(9)}${"× node".padStart(9)}${"× curl".padStart(9)}`,
  );
  for (const [name, samples] of rows) {
    const m = median(samples);
    console.log(
      `${name.padEnd(38)}${m.toFixed(1).padStart(11)}${(samples[0] ?? NaN).toFixed(1).padStart(9)}${(m / nodeMs).toFixed(2).padStart(9)}${(m / curlMs).toFixed(2).padStart(9)}`,
    );
  }
  if (!existsSync(dist))
    console.log(
      "(dist/ not built: `pnpm --filter @gauntlet/cli build` to measure what npm users run)",
    );
  console.log("target: gauntlet --help < 150 ms cold");
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}

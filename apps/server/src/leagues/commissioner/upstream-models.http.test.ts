// Every message the platform sends a commissioner, over a whole league (migration, scheduling,
// a round with its episodes), validates against the hosted service's own pydantic models: the
// upstream protocol.py is read from a fetched Metta-AI/coworld at test time (COWORLD_REPO), never
// copied into this repository, and run by python3 with pydantic 2. Skipped where either is absent.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { commissionedLeague, untilRound } from "../../../testing/commissioned-league.ts";
import { scriptedLauncher } from "../../../testing/scripted-commissioner.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { scriptedRunner, type ScriptedRunner } from "../../../testing/test-league.ts";

const repo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";
const PROTOCOL = "src/coworld/commissioner/protocol.py";
const validator = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../testing/upstream-commissioner-models.py",
);

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return null;
  }
}

const upstream = run("git", ["-C", repo, "show", `HEAD:${PROTOCOL}`]);
const pydantic = run("python3", ["-c", "import pydantic; print(pydantic.VERSION)"]);
const missing =
  upstream === null
    ? `no Metta-AI/coworld at ${repo} (set COWORLD_REPO)`
    : pydantic === null || !pydantic.startsWith("2.")
      ? "python3 with pydantic 2 is not installed"
      : null;
if (missing) console.warn(`skipping the upstream commissioner models: ${missing}`);

const launcher = scriptedLauncher();
let t: TestServer;
let runner: ScriptedRunner;
const scratch = mkdtempSync(join(tmpdir(), "gauntlet-upstream-"));

describe.skipIf(missing !== null)("messages to a commissioner, by upstream's models", () => {
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        GAUNTLET_SCHEDULER_TICK_MS: "30",
        GAUNTLET_COMMISSIONER_SCHEDULE_MS: "50",
        GAUNTLET_COMMISSIONER_POLL_MS: "25",
        GAUNTLET_COMMISSIONER_LIFETIME_MS: "4000",
        GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "2000",
      },
      commissionerLauncher: launcher,
    });
    runner = await scriptedRunner(t);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("validates every message of a league's migration, scheduling and round", async () => {
    const tl = await commissionedLeague(t);
    await untilRound(t, runner, tl, "completed");

    const protocol = join(scratch, "protocol.py");
    const messages = join(scratch, "messages.json");
    writeFileSync(protocol, upstream ?? "");
    writeFileSync(messages, JSON.stringify(launcher.sent));
    const out = execFileSync("python3", [validator, protocol, messages], { encoding: "utf8" });
    const report = JSON.parse(out) as {
      checked: Record<string, number>;
      refused: { index: number; type: string; errors: string }[];
    };

    expect(report.refused).toEqual([]);
    for (const type of [
      "league_migration_config_request",
      "league_migration_request",
      "schedule_rounds_request",
      "round_start",
      "episodes_accepted",
      "episode_result",
    ])
      expect(report.checked[type] ?? 0, type).toBeGreaterThan(0);
  });
});

// Everything the commissioner sends over a league's migration, scheduling and a round with a
// retry also validates against the hosted service's own pydantic models: protocol.py is read
// from a fetched Metta-AI/coworld at test time (COWORLD_REPO), never copied into this
// repository, and loaded by path by python3 with pydantic 2. Skipped where either is absent.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, describe, expect, it } from "vitest";

import { Conversation, startCommissioner, stopAll, type Message } from "./conversation.ts";
import { A, B, C, DAILY_ID, hill, league, membership, result, roundStart } from "./fixture.ts";

const repo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return null;
  }
}

const upstream = run("git", ["-C", repo, "show", "HEAD:src/coworld/commissioner/protocol.py"]);
const pydantic = run("python3", ["-c", "import pydantic; print(pydantic.VERSION)"]);
const missing =
  upstream === null
    ? `no Metta-AI/coworld at ${repo} (set COWORLD_REPO)`
    : pydantic?.startsWith("2.")
      ? null
      : "python3 with pydantic 2 is not installed";
if (missing) console.warn(`skipping the upstream commissioner models: ${missing}`);

// Loads protocol.py by path and validates each message with the model of its type; a field the
// model would drop counts as refused (the platform would not read what was sent).
const VALIDATE = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("upstream_protocol", sys.argv[1])
p = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = p
spec.loader.exec_module(p)
models = {
    "schedule_rounds_response": p.ScheduleRoundsResponse,
    "league_migration_config_response": p.LeagueMigrationConfigResponse,
    "league_migration_response": p.LeagueMigrationResponse,
    "schedule_episodes": p.ScheduleEpisodes,
    "round_complete": p.RoundComplete,
}
refused, checked = [], {}
for i, m in enumerate(json.load(open(sys.argv[2]))):
    body = {k: v for k, v in m.items() if k != "type"}
    try:
        echoed = models[m["type"]].model_validate(body).to_json()
    except Exception as e:
        refused.append([i, m.get("type"), str(e)])
        continue
    lost = [k for k in body if k not in echoed]
    if lost:
        refused.append([i, m["type"], "dropped: %s" % lost])
        continue
    checked[m["type"]] = checked.get(m["type"], 0) + 1
print(json.dumps({"checked": checked, "refused": refused}))
`;

const scratch = mkdtempSync(join(tmpdir(), "gridrush-upstream-"));
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function session(script: (talk: Conversation) => Promise<void>): Promise<Message[]> {
  const commissioner = await startCommissioner();
  const talk = await Conversation.open(commissioner);
  await script(talk);
  talk.close();
  await commissioner.exit;
  return talk.received;
}

describe.skipIf(missing !== null)("the commissioner's messages, by upstream's models", () => {
  it("validates every message of a migration, a scheduling tick and a round", async () => {
    const sent: Message[] = [];
    sent.push(
      ...(await session(async (talk) => {
        talk.send({
          type: "league_migration_config_request",
          league,
          divisions: [{ ...hill, id: DAILY_ID, name: "Daily" }],
        });
        await talk.expect("league_migration_config_response");
        talk.send({
          type: "league_migration_request",
          league,
          divisions: [hill],
          memberships: [membership(A, DAILY_ID)],
        });
        await talk.expect("league_migration_response");
        talk.send({
          type: "schedule_rounds_request",
          league,
          divisions: [hill],
          active_memberships: [membership(A), membership(B)],
          recent_rounds: [],
        });
        await talk.expect("schedule_rounds_response");
      })),
    );
    sent.push(
      ...(await session(async (talk) => {
        talk.send(roundStart(1, [A, B, C]));
        const first = (
          (await talk.expect("schedule_episodes")).episodes as { request_id: string }[]
        )[0];
        talk.send({
          type: "episode_failed",
          request_id: first?.request_id ?? "",
          error: "timeout",
        });
        const retry = (
          (await talk.expect("schedule_episodes")).episodes as { request_id: string }[]
        )[0];
        talk.send(result(retry?.request_id ?? "", [A.version, B.version], [2, 1]));
        const second = (
          (await talk.expect("schedule_episodes")).episodes as { request_id: string }[]
        )[0];
        talk.send(result(second?.request_id ?? "", [C.version, A.version], [5, 1]));
        await talk.expect("round_complete");
      })),
    );

    const protocol = join(scratch, "protocol.py");
    const messages = join(scratch, "messages.json");
    writeFileSync(protocol, upstream ?? "");
    writeFileSync(messages, JSON.stringify(sent));
    const report = JSON.parse(
      execFileSync("python3", ["-c", VALIDATE, protocol, messages], { encoding: "utf8" }),
    ) as { checked: Record<string, number>; refused: unknown[] };
    expect(report.refused).toEqual([]);
    expect(report.checked).toEqual({
      league_migration_config_response: 1,
      league_migration_response: 1,
      schedule_rounds_response: 1,
      schedule_episodes: 3,
      round_complete: 1,
    });
  });
});

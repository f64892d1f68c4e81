// Every ```json example of the hosted service's COMMISSIONER.md parses with the schema its `type`
// names. The document is read from a fetched Metta-AI/coworld at test time (COWORLD_REPO, a bare
// or checked-out git repository), never copied into this repository.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { COMMISSIONER_STATE_MAX_BYTES } from "./limits.ts";
import {
  commissionerMessageSchemas,
  RoundComplete,
  ScheduleEpisodes,
  stateToKeep,
} from "./protocol.ts";

const repo = process.env.COWORLD_REPO ?? "/work/.mirror/Metta-AI+coworld/repo";
const DOC = "src/coworld/docs/roles/COMMISSIONER.md";

function commissionerDoc(): string | null {
  if (!existsSync(repo)) return null;
  try {
    return execFileSync("git", ["-C", repo, "show", `HEAD:${DOC}`], { encoding: "utf8" });
  } catch {
    return null;
  }
}

const doc = commissionerDoc();
if (doc === null)
  console.warn(
    `skipping COMMISSIONER.md examples: no Metta-AI/coworld at ${repo} (set COWORLD_REPO)`,
  );

describe.skipIf(doc === null)("COMMISSIONER.md examples", () => {
  const blocks = [...(doc ?? "").matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const messages = blocks
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .filter((m) => typeof m.type === "string");

  it("has the protocol's message examples", () => {
    const types = new Set(messages.map((m) => m.type));
    for (const t of [
      "schedule_rounds_request",
      "round_start",
      "schedule_episodes",
      "round_complete",
    ])
      expect(types).toContain(t);
  });

  for (const message of messages) {
    it(`parses the ${String(message.type)} example`, () => {
      const schema =
        commissionerMessageSchemas[message.type as keyof typeof commissionerMessageSchemas];
      expect(schema, `no schema for ${String(message.type)}`).toBeDefined();
      const parsed = schema.safeParse(message);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    });
  }
});

describe("commissioner messages", () => {
  it("takes a round_complete whose state is past the limit, and keeps only a state within it", () => {
    const state = { blob: "x".repeat(COMMISSIONER_STATE_MAX_BYTES) };
    expect(RoundComplete.safeParse({ type: "round_complete", state }).success).toBe(true);
    expect(stateToKeep(state)).toMatchObject({
      json: null,
      dropped: expect.stringMatching(/not kept/),
    });
    expect(stateToKeep({ ok: 1 })).toEqual({ json: '{"ok":1}', dropped: null });
    expect(stateToKeep(null)).toEqual({ json: null, dropped: null });
  });

  it("fills the upstream defaults of an episode request", () => {
    const parsed = ScheduleEpisodes.parse({
      type: "schedule_episodes",
      episodes: [{ request_id: "r1", variant_id: "v", policy_version_ids: ["a"] }],
    });
    expect(parsed.episodes[0]).toMatchObject({ tags: {}, game_config_overrides: {} });
  });
});

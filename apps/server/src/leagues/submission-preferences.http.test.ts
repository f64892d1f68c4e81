// A submission's preferences are shown to the league's commissioner with every live membership,
// in every schedule_rounds_request and round_start — the built-in's too, in-process, when a
// round starts and inside each round's settling transaction under the league lock. A player who
// could store megabytes there would make every round of the league pay for them (4 memberships
// of 3 MB made one settle take over 4 s): they are bounded at submission.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";
import { membershipInfos } from "./commissioner/context.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
});
afterAll(async () => {
  await t?.close();
});

/** Preferences of about `bytes` bytes of JSON, as many small keys (the costliest to parse). */
function bloated(bytes: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0, length = 2; length < bytes; i++) {
    out[`k${i}`] = i;
    length += `"k${i}":${i},`.length;
  }
  return out;
}

describe("a submission's preferences", () => {
  it("past 16 KiB of JSON are refused; within it the submission is placed", async () => {
    const tl = await createTestLeague(t);
    const mallory = await t.newUser();
    const player = await tl.addPlayer("Mallory", { owner: mallory });
    const res = await client(t.url, mallory.token).post("/v2/league-submissions", {
      league_id: tl.league.id,
      policy_version_id: player.policyVersionId,
      player_id: player.id,
      preferences: bloated(17 * 1024),
    });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/preferences/);
    const small = await tl.submit(player, { preferences: { style: "aggressive" } }, mallory.token);
    expect(small.status).toBe("placed");
  });

  it("stored past the bound before it existed, reach no commissioner", async () => {
    const tl = await createTestLeague(t);
    const mallory = await t.newUser();
    const player = await tl.addPlayer("Mallory", { owner: mallory });
    const old = await tl.submit(player, { preferences: { style: "aggressive" } }, mallory.token);
    const fair = await tl.submit(await tl.addPlayer("Fair"), { preferences: { style: "calm" } });
    // As a server before the bound would have stored it.
    await t.server.store.db
      .updateTable("league_submissions")
      .set({ preferences: JSON.stringify(bloated(3 * 1024 * 1024)) })
      .where("id", "=", old.id)
      .execute();
    const infos = await membershipInfos(t.server.store.db, tl.league.id);
    const prefs = infos.map((m) => m.preferences);
    expect(prefs).toHaveLength(2);
    expect(prefs).toContainEqual({});
    expect(prefs).toContainEqual({ style: "calm" });
    expect(fair.status).toBe("placed");
  });
});

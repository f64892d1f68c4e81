// A league's settings document is held to the stored free-form bound (16 KiB as JSON) on every
// route that writes it: the settings route too, not only the create (megabytes of settings made
// every league listing megabytes long).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { League } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";

/** The bound (packages/core/src/models/common.ts, StoredFreeForm). */
const STORED_FREE_FORM_MAX_BYTES = 16 * 1024;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("a league's settings document", () => {
  it("past 16 KiB is a 422 on the settings route, and the stored settings are kept", async () => {
    const tl = await createTestLeague(t);
    const api = client(t.url, tl.commissioner.token);
    const path = `/v2/leagues/${tl.league.id}/settings`;
    const before = (await api.get<Record<string, unknown>>(path)).body;
    const big = { ...before, padding: "x".repeat(STORED_FREE_FORM_MAX_BYTES) };
    const refused = await api.post<{ detail: { loc: unknown[] }[] }>(path, big);
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(["body"]);
    expect((await api.get(path)).body).toEqual(before);
    const listed = await client(t.url).get<League[]>(`/v2/leagues/${tl.league.id}`);
    expect(listed.text.length).toBeLessThan(STORED_FREE_FORM_MAX_BYTES * 4);
    // Within the bound it is stored as before.
    const fits = await api.post(path, { ...before, padding: "x".repeat(1000) });
    expect(fits.status, fits.text).toBe(200);
  });
});

// Listing episode requests the way the hosted service's clients page: by offset, up to 1000 a page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";

type Page = { entries: { id: string }[]; next_cursor: string | null };

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("GET /v2/episode-requests by offset", () => {
  it("pages by offset as it pages by cursor, and takes limit up to 1000", async () => {
    const tl = await createTestLeague(t);
    const ada = await tl.addPlayer("Ada");
    const bob = await tl.addPlayer("Bob");
    const api = client(t.url, tl.commissioner.token);
    const xr = await api.post<ExperienceRequestDetail>("/v2/experience-requests", {
      coworld_id: tl.coworldId,
      roster: [
        { player: { policy_ref: ada.policyVersionId } },
        { player: { policy_ref: bob.policyVersionId } },
      ],
      num_episodes: 3,
    });
    expect(xr.status).toBe(201);
    const list = (query: string) =>
      api.get<Page>(`/v2/episode-requests?coworld_id=${tl.coworldId}&${query}`);
    const all = await list("limit=1000");
    expect(all.status).toBe(200);
    const ids = all.body.entries.map((e) => e.id);
    expect(ids).toHaveLength(3);
    const byOffset: string[] = [];
    for (const offset of [0, 1, 2, 3]) {
      const page = await list(`limit=1&offset=${offset}`);
      expect(page.status).toBe(200);
      byOffset.push(...page.body.entries.map((e) => e.id));
    }
    expect(byOffset).toEqual(ids);
    // The offset counts from the cursor when both are given.
    const first = await list("limit=1");
    const afterCursor = await list(
      `limit=1&offset=1&cursor=${encodeURIComponent(first.body.next_cursor ?? "")}`,
    );
    expect(afterCursor.body.entries.map((e) => e.id)).toEqual([ids[2]]);
    const tooMany = await list("limit=1001");
    expect(tooMany.status).toBe(422);
    expect(tooMany.text).toContain('"limit"');
    expect((await list("offset=-1")).status).toBe(422);
  }, 60_000);
});

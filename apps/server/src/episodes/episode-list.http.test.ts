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

describe("GET /v2/episode-requests: whose episodes", () => {
  it("mine=true lists the episodes the caller had a seat in; policy_id every version's", async () => {
    const tl = await createTestLeague(t);
    const rival = await t.newUser();
    const ada = await tl.addPlayer("Ada");
    const other = await tl.addPlayer("Other");
    const rob = await tl.addPlayer("Rob", { owner: rival });
    const rob2 = await tl.addPlayer("Rob2", { owner: rival });
    const play = async (token: string, a: string, b: string) => {
      const xr = await client(t.url, token).post<ExperienceRequestDetail>(
        "/v2/experience-requests",
        {
          coworld_id: tl.coworldId,
          roster: [{ player: { policy_ref: a } }, { player: { policy_ref: b } }],
          num_episodes: 1,
        },
      );
      expect(xr.status).toBe(201);
    };
    await play(tl.commissioner.token, ada.policyVersionId, other.policyVersionId);
    await play(rival.token, rob.policyVersionId, rob2.policyVersionId);
    await play(rival.token, rob2.policyVersionId, rob2.policyVersionId);
    const list = (token: string | undefined, query: string) =>
      client(t.url, token).get<Page>(`/v2/episode-requests?coworld_id=${tl.coworldId}&${query}`);

    const rivals = await list(rival.token, "mine=true");
    expect(rivals.status).toBe(200);
    expect(rivals.body.entries).toHaveLength(2);
    const commissioners = await list(tl.commissioner.token, "mine=true");
    expect(commissioners.body.entries).toHaveLength(1);
    // An admin sees every episode, and had a seat in none.
    expect((await list(t.adminToken, "")).body.entries).toHaveLength(3);
    expect((await list(t.adminToken, "mine=true")).body.entries).toHaveLength(0);
    const policyOf = await client(t.url, rival.token).get<{ policy_id: string }>(
      `/stats/policy-versions/${rob.policyVersionId}`,
    );
    const byPolicy = await list(rival.token, `policy_id=${policyOf.body.policy_id}`);
    expect(byPolicy.body.entries).toHaveLength(1);

    const anonymous = await list(undefined, "mine=true");
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain("mine=true");
    expect((await list(tl.commissioner.token, "mine=maybe")).status).toBe(422);
  }, 60_000);
});

describe("GET /v2/episode-requests?source=", () => {
  it("lists only the episodes of one origin: coworld_upload is the upload's certification episode", async () => {
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
      num_episodes: 2,
    });
    expect(xr.status).toBe(201);
    const certified = await api.post<{ episode_request_id: string }>(
      `/v2/coworlds/${tl.coworldId}/certify`,
    );
    expect(certified.status, certified.text).toBeLessThan(300);
    const list = (query: string, base = t.url) =>
      client(base, tl.commissioner.token).get<Page>(
        `/v2/episode-requests?coworld_id=${tl.coworldId}&${query}`,
      );
    expect((await list("limit=1000")).body.entries).toHaveLength(3);
    // What coworld's upload client asks while it waits for its smoke episode.
    const uploads = await list("source=coworld_upload&limit=1000&offset=0");
    expect(uploads.status).toBe(200);
    expect(uploads.body.entries.map((e) => e.id)).toEqual([certified.body.episode_request_id]);
    expect((await list("source=experience_request")).body.entries).toHaveLength(2);
    expect((await list("source=league")).body.entries).toHaveLength(0);
    // The same under the data host's prefix.
    const onDataHost = await list("source=coworld_upload", t.dataUrl);
    expect(onDataHost.body.entries).toHaveLength(1);
    const unknown = await list("source=nonsense");
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain("coworld_upload");
    expect(unknown.text).toContain('"source"');
  }, 60_000);
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { contract, defineOperation, type OperationDef } from "@gauntlet/core";

import { sampleLeague, startScriptedServer, type ScriptedServer } from "../test/scripted-server.ts";
import { callOperation } from "./call.ts";
import { createClient } from "./client.ts";
import { DEFAULT_RETRY } from "./options.ts";
import { iterateItems, pageShapeOf } from "./pagination.ts";

// Operations shaped like the offset and cursor lists of docs/api.md (rounds, episode requests),
// which the contract does not have yet.
const Item = z.object({ n: z.number() });
const offsetOp = defineOperation({
  id: "listThingsByOffset",
  method: "GET",
  path: "/things",
  tag: "Rounds",
  summary: "x",
  auth: "optional",
  complexity: 10,
  query: z.object({ limit: z.coerce.number().optional(), offset: z.coerce.number().optional() }),
  status: 200,
  response: z.object({
    entries: z.array(Item),
    total_count: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
const cursorOp = defineOperation({
  id: "listThingsByCursor",
  method: "GET",
  path: "/things",
  tag: "Episodes",
  summary: "x",
  auth: "optional",
  complexity: 10,
  query: z.object({ cursor: z.string().optional(), limit: z.coerce.number().optional() }),
  status: 200,
  response: z.object({ entries: z.array(Item), next_cursor: z.string().nullable() }),
});

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function fetcher(op: OperationDef) {
  return async (input: Readonly<Record<string, unknown>> | undefined) => {
    const config = {
      baseUrl: server.url,
      token: null,
      timeoutMs: 5_000,
      retry: DEFAULT_RETRY,
      fetch: undefined,
      headers: {},
      onRetry: undefined,
      elevated: false,
    };
    return (await callOperation(op, input, { config, options: {}, onBudget: () => undefined }))
      .data;
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("list shapes", () => {
  it("are read from the response schema", () => {
    expect(pageShapeOf(contract.listLeagues)).toBe("array-offset");
    expect(pageShapeOf(contract.listDivisions)).toBe("array");
    expect(pageShapeOf(contract.getLeague)).toBeNull();
    expect(pageShapeOf(contract.getLeagueSettings)).toBeNull();
    expect(pageShapeOf(offsetOp)).toBe("offset");
    expect(pageShapeOf(contract.searchPolicyVersions)).toBe("offset");
    expect(pageShapeOf(contract.listEpisodeRequests)).toBe("cursor");
    expect(pageShapeOf(cursorOp)).toBe("cursor");
    // A page shape whose operation cannot be asked for the next page is not walked.
    expect(pageShapeOf({ ...offsetOp, query: z.object({ limit: z.coerce.number() }) })).toBeNull();
  });

  it("give every list operation of the client an iterate method, and no other", () => {
    const client = createClient({ env: {}, useSavedCredentials: false, baseUrl: server.url });
    expect(typeof client.leagues.list.iterate).toBe("function");
    expect("iterate" in client.leagues.get).toBe(false);
  });
});

describe("iteration", () => {
  it("walks offset pages until total_count, fetching each page when reached", async () => {
    const all = Array.from({ length: 5 }, (_, n) => ({ n }));
    server.setScript((req) => {
      const url = new URL(req.url, "http://x");
      const offset = Number(url.searchParams.get("offset"));
      const limit = Number(url.searchParams.get("limit"));
      return {
        json: {
          entries: all.slice(offset, offset + limit),
          total_count: all.length,
          limit,
          offset,
        },
      };
    });
    const items = iterateItems("offset", fetcher(offsetOp), { limit: 2 });
    expect((await items.next()).value).toEqual({ n: 0 });
    expect(server.requests).toHaveLength(1);
    expect(await collect(items)).toEqual(all.slice(1));
    expect(server.requests.map((r) => r.url)).toEqual([
      "/things?limit=2&offset=0",
      "/things?limit=2&offset=2",
      "/things?limit=2&offset=4",
    ]);
  });

  it("walks cursor pages until next_cursor is null", async () => {
    const pages: Record<string, { entries: { n: number }[]; next_cursor: string | null }> = {
      "": { entries: [{ n: 1 }, { n: 2 }], next_cursor: "c2" },
      c2: { entries: [{ n: 3 }], next_cursor: "c3" },
      c3: { entries: [], next_cursor: null },
    };
    server.setScript((req) => ({
      json: pages[new URL(req.url, "http://x").searchParams.get("cursor") ?? ""],
    }));
    expect(await collect(iterateItems("cursor", fetcher(cursorOp), { limit: 2 }))).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/things?limit=2",
      "/things?limit=2&cursor=c2",
      "/things?limit=2&cursor=c3",
    ]);
  });

  it("stops when a server repeats the same cursor", async () => {
    server.setScript(() => ({ json: { entries: [{ n: 1 }], next_cursor: "same" } }));
    expect(await collect(iterateItems("cursor", fetcher(cursorOp), { cursor: "same" }))).toEqual([
      { n: 1 },
    ]);
  });

  it("walks a bare-array list that takes offset (the leagues) until a page shorter than its limit", async () => {
    const all = Array.from({ length: 5 }, (_, n) =>
      sampleLeague({ id: `league_00000000-0000-4000-8000-00000000000${n}` }),
    );
    server.setScript((req) => {
      const url = new URL(req.url, "http://x");
      const offset = Number(url.searchParams.get("offset"));
      return { json: all.slice(offset, offset + Number(url.searchParams.get("limit"))) };
    });
    const client = createClient({ env: {}, useSavedCredentials: false, baseUrl: server.url });
    const ids: string[] = [];
    for await (const league of client.leagues.list.iterate({ limit: 2 })) ids.push(league.id);
    expect(ids).toEqual(all.map((l) => l.id));
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/leagues?limit=2&offset=0",
      "/v2/leagues?limit=2&offset=2",
      "/v2/leagues?limit=2&offset=4",
    ]);
  });

  it("yields the items of a bare-array list through the client", async () => {
    server.setScript(() => ({
      json: [sampleLeague(), sampleLeague({ id: "league_00000000-0000-4000-8000-000000000002" })],
    }));
    const client = createClient({ env: {}, useSavedCredentials: false, baseUrl: server.url });
    const ids: string[] = [];
    for await (const league of client.leagues.list.iterate({ mine: true })) ids.push(league.id);
    expect(ids).toHaveLength(2);
    expect(server.requests[0]?.url).toBe("/v2/leagues?mine=true&limit=100&offset=0");
    expect(await collect(client.iterate("listLeagues"))).toHaveLength(2);
  });
});

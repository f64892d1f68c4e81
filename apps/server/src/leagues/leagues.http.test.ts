import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

type League = {
  id: string;
  name: string;
  public: boolean;
  hidden: boolean;
  game: { id: string };
  mod: { id: string } | null;
  rounds_paused_at: string | null;
  is_game_of_week: boolean;
  commissioner_user_id: string;
  settings: Record<string, unknown>;
};
type Division = {
  id: string;
  name: string;
  level: number;
  type: string;
  archived_at: string | null;
  league: { id: string };
};
type ValidationBody = {
  detail: { loc: (string | number)[]; msg: string; type: string; input?: unknown }[];
};

let t: TestServer;
let gameId: string;
let owner: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  const game = await client(t.url, t.adminToken).post<{ id: string }>("/v2/games", {
    name: "gridrush",
    description: "a grid contest",
  });
  gameId = game.body.id;
  owner = await t.newUser();
  other = await t.newUser();
});
afterAll(async () => {
  await t.close();
});

async function newLeague(body: Record<string, unknown> = {}) {
  const res = await client(t.url, owner.token).post<League>("/v2/leagues", {
    name: "Spring ladder",
    game_id: gameId,
    public: true,
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("games and mods", () => {
  it("lets admins create games and anyone read them", async () => {
    const games = await client(t.url).get<{ id: string; name: string }[]>("/v2/games");
    expect(games.body.map((g) => g.name)).toContain("gridrush");
    const one = await client(t.url).get<{ id: string; coworld_name: string | null }>(
      `/v2/games/${gameId}`,
    );
    expect(one.status).toBe(200);
    expect(one.body.coworld_name).toBeNull();
  });

  it("refuses game creation to non-admins and a duplicate name", async () => {
    expect((await client(t.url, owner.token).post("/v2/games", { name: "x" })).status).toBe(403);
    const dup = await client(t.url, t.adminToken).post<{ detail: { type: string } }>("/v2/games", {
      name: "gridrush",
    });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.type).toBe("conflict");
  });

  it("creates a mod embedding its game", async () => {
    const mod = await client(t.url, t.adminToken).post<{ id: string; game: { id: string } }>(
      "/v2/mods",
      { game_id: gameId, name: "fog" },
    );
    expect(mod.status).toBe(201);
    expect(mod.body.game.id).toBe(gameId);
    expect((await client(t.url).get<unknown[]>(`/v2/mods?game_id=${gameId}`)).body).toHaveLength(1);
    expect((await client(t.url).get(`/v2/mods/${mod.body.id}`)).status).toBe(200);
  });
});

describe("leagues", () => {
  it("creates a league whose creator commissions it, with spec defaults", async () => {
    const league = await newLeague();
    expect(league.id).toMatch(
      /^league_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(league).toMatchObject({
      name: "Spring ladder",
      public: true,
      hidden: false,
      is_game_of_week: false,
      rounds_paused_at: null,
      mod: null,
      commissioner_user_id: owner.id,
      settings: {},
    });
    expect(league.game.id).toBe(gameId);
    const got = await client(t.url).get<League>(`/v2/leagues/${league.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(league);
  });

  // A league's config is read back by everyone who lists leagues: megabytes of it made every
  // listing (and the web view's front page) megabytes long.
  it("refuses a commissioner_config, settings or rules over 16 KiB with a 422 naming the field", async () => {
    const big = { blob: "x".repeat(17 * 1024) };
    for (const field of ["commissioner_config", "settings", "rules"]) {
      const res = await client(t.url, owner.token).post<ValidationBody>("/v2/leagues", {
        name: "Too big",
        game_id: gameId,
        public: true,
        [field]: big,
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]?.loc).toEqual(["body", field]);
      expect(res.body.detail[0]?.msg).toMatch(/at most 16384 bytes as JSON/);
    }
    const listed = await client(t.url).get<League[]>("/v2/leagues");
    expect(listed.body.map((l) => l.name)).not.toContain("Too big");
    expect(await newLeague({ commissioner_config: { blob: "x".repeat(15 * 1024) } })).toBeTruthy();
  });

  it("keeps a private league invisible (404) to others and anonymous callers", async () => {
    const league = await newLeague({ public: false });
    expect((await client(t.url).get(`/v2/leagues/${league.id}`)).status).toBe(404);
    expect((await client(t.url, other.token).get(`/v2/leagues/${league.id}`)).status).toBe(404);
    expect((await client(t.url, owner.token).get(`/v2/leagues/${league.id}`)).status).toBe(200);
    expect((await client(t.url, t.adminToken).get(`/v2/leagues/${league.id}`)).status).toBe(200);
    const listed = await client(t.url).get<League[]>("/v2/leagues");
    expect(listed.body.map((l) => l.id)).not.toContain(league.id);
    const mine = await client(t.url, owner.token).get<League[]>("/v2/leagues?mine=true");
    expect(mine.body.map((l) => l.id)).toContain(league.id);
  });

  it("answers 422 in the shape of docs/api.md for a malformed league_id in the path", async () => {
    const res = await client(t.url).get<ValidationBody>("/v2/leagues/not-a-league");
    expect(res.status).toBe(422);
    expect(res.body.detail).toHaveLength(1);
    expect(res.body.detail[0]).toMatchObject({
      loc: ["path", "league_id"],
      type: "string_pattern_mismatch",
      input: "not-a-league",
    });
    expect(typeof res.body.detail[0]?.msg).toBe("string");
  });

  it("answers 422 for an unknown body property and names it", async () => {
    const res = await client(t.url, owner.token).post<ValidationBody>("/v2/leagues", {
      name: "x",
      game_id: gameId,
      colour: "red",
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        loc: ["body", "colour"],
        msg: "Extra inputs are not permitted: colour",
        type: "extra_forbidden",
        input: "red",
      },
    ]);
  });

  it("reports every problem of a body at once, and a missing field as missing", async () => {
    const res = await client(t.url, owner.token).post<ValidationBody>("/v2/leagues", {
      public: "yes",
    });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d) => d.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.name", "body.game_id", "body.public"]));
    expect(res.body.detail.find((d) => d.loc.join(".") === "body.name")?.type).toBe("missing");
  });

  it("answers 422 naming the body field for an unknown game", async () => {
    const res = await client(t.url, owner.token).post<ValidationBody>("/v2/leagues", {
      name: "x",
      game_id: "game_00000000-0000-4000-8000-000000000000",
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.loc).toEqual(["body", "game_id"]);
  });

  it("treats a body that is not JSON as a 422 of the body", async () => {
    const res = await client(t.url, owner.token).post<ValidationBody>("/v2/leagues", "{not json", {
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
  });

  it("requires a token to write (401) and the commissioner to change (403)", async () => {
    const league = await newLeague();
    expect((await client(t.url).post("/v2/leagues", { name: "x", game_id: gameId })).status).toBe(
      401,
    );
    const res = await client(t.url, other.token).patch<{ detail: { type: string } }>(
      `/v2/leagues/${league.id}`,
      { name: "mine now" },
    );
    expect(res.status).toBe(403);
    expect(res.body.detail.type).toBe("forbidden");
    expect((await client(t.url).get<League>(`/v2/leagues/${league.id}`)).body.name).toBe(
      "Spring ladder",
    );
  });

  it("patches fields, and leaves the game of the week to admins", async () => {
    const league = await newLeague();
    const patched = await client(t.url, owner.token).patch<League>(`/v2/leagues/${league.id}`, {
      name: "Summer ladder",
      description: "hot",
    });
    expect(patched.body.name).toBe("Summer ladder");
    expect(
      (
        await client(t.url, owner.token).patch(`/v2/leagues/${league.id}`, {
          is_game_of_week: true,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await client(t.url, t.adminToken).patch<League>(`/v2/leagues/${league.id}`, {
          is_game_of_week: true,
        })
      ).body.is_game_of_week,
    ).toBe(true);
    expect((await client(t.url).get<League | null>("/v2/leagues/game-of-week")).body?.id).toBe(
      league.id,
    );
    const second = await newLeague();
    await client(t.url, t.adminToken).patch(`/v2/leagues/${second.id}`, { is_game_of_week: true });
    expect((await client(t.url).get<League>("/v2/leagues/game-of-week")).body.id).toBe(second.id);
    expect((await client(t.url).get<League>(`/v2/leagues/${league.id}`)).body.is_game_of_week).toBe(
      false,
    );
  });

  it("replaces settings whole, sets locks partially, pauses and resumes rounds", async () => {
    const league = await newLeague();
    const api = client(t.url, owner.token);
    await api.post(`/v2/leagues/${league.id}/settings`, { ladder: { ranking: "elo" }, old: 1 });
    const settings = await api.post(`/v2/leagues/${league.id}/settings`, {
      ladder: { ranking: "score" },
    });
    expect(settings.body).toEqual({ ladder: { ranking: "score" } });
    expect((await client(t.url).get(`/v2/leagues/${league.id}/settings`)).body).toEqual({
      ladder: { ranking: "score" },
    });
    expect((await client(t.url).get(`/v2/leagues/${league.id}/locks`)).body).toEqual({
      submissions_locked: false,
      game_version_locked: false,
    });
    expect(
      (await api.post(`/v2/leagues/${league.id}/locks`, { submissions_locked: true })).body,
    ).toEqual({ submissions_locked: true, game_version_locked: false });
    const paused = await api.post<League>(`/v2/leagues/${league.id}/rounds-paused`, {
      paused: true,
    });
    expect(paused.body.rounds_paused_at).not.toBeNull();
    expect(
      (await api.post<League>(`/v2/leagues/${league.id}/rounds-paused`, { paused: false })).body
        .rounds_paused_at,
    ).toBeNull();
    expect(
      (
        await client(t.url, other.token).post(`/v2/leagues/${league.id}/locks`, {
          submissions_locked: false,
        })
      ).status,
    ).toBe(403);
  });

  it("refuses a malformed ladder section, naming the field, and keeps the old settings", async () => {
    const league = await newLeague({ settings: { ladder: { ranking: "elo" } } });
    const api = client(t.url, owner.token);
    const bad = await api.post<ValidationBody>(`/v2/leagues/${league.id}/settings`, {
      ladder: { ranking: "chess", elo: { k: "big" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d) => d.loc.join("."))).toEqual(
      expect.arrayContaining(["body.ladder.ranking", "body.ladder.elo.k"]),
    );
    expect((await client(t.url).get(`/v2/leagues/${league.id}/settings`)).body).toEqual({
      ladder: { ranking: "elo" },
    });
    const create = await api.post<ValidationBody>("/v2/leagues", {
      name: "x",
      game_id: gameId,
      settings: { ladder: { seating: "random" } },
    });
    expect(create.status).toBe(422);
    expect(create.body.detail[0]?.loc).toEqual(["body", "settings", "ladder", "seating"]);
  });

  it("creates one object for a retried create with the same Idempotency-Key", async () => {
    const api = client(t.url, owner.token);
    const body = { name: "Idempotent league", game_id: gameId, public: true };
    const first = await api.post<League>("/v2/leagues", body, {
      headers: { "idempotency-key": "key-1" },
    });
    const second = await api.post<League>("/v2/leagues", body, {
      headers: { "idempotency-key": "key-1" },
    });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const reused = await api.post<{ detail: { type: string } }>(
      "/v2/leagues",
      { ...body, name: "other" },
      { headers: { "idempotency-key": "key-1" } },
    );
    expect(reused.status).toBe(409);
    expect(reused.body.detail.type).toBe("idempotency_key_reused");
    const all = await client(t.url).get<League[]>("/v2/leagues");
    expect(all.body.filter((l) => l.name === "Idempotent league")).toHaveLength(1);
  });
});

describe("divisions", () => {
  it("replaces the division set: updates kept ones, creates new ones, archives the rest", async () => {
    const league = await newLeague({
      divisions: [
        { name: "Premier", level: 1 },
        { name: "Challenger", level: 2 },
      ],
    });
    const api = client(t.url, owner.token);
    const initial = await client(t.url).get<Division[]>(`/v2/divisions?league_id=${league.id}`);
    expect(initial.body.map((d) => [d.name, d.level, d.type])).toEqual([
      ["Premier", 1, "competition"],
      ["Challenger", 2, "competition"],
    ]);
    expect(initial.body[0]?.league.id).toBe(league.id);
    const premier = initial.body[0];
    const replaced = await api.put<Division[]>(`/v2/leagues/${league.id}/divisions`, [
      { id: premier?.id, name: "Premier League", level: 1 },
      { name: "Qualifiers", level: 3, type: "staging" },
    ]);
    expect(replaced.status).toBe(200);
    expect(replaced.body.map((d) => d.name)).toEqual(["Premier League", "Qualifiers"]);
    expect(replaced.body[0]?.id).toBe(premier?.id);
    const withArchived = await client(t.url).get<Division[]>(
      `/v2/divisions?league_id=${league.id}&include_archived=true`,
    );
    expect(withArchived.body.find((d) => d.name === "Challenger")?.archived_at).not.toBeNull();
    const ladder = await client(t.url).get(`/v2/leagues/${league.id}/division-ladder`);
    expect(ladder.body).toEqual([
      { id: premier?.id, name: "Premier League", level: 1, member_count: 0 },
      { id: replaced.body[1]?.id, name: "Qualifiers", level: 3, member_count: 0 },
    ]);
    const one = await client(t.url).get<Division>(`/v2/divisions/${premier?.id}`);
    expect(one.body.name).toBe("Premier League");
  });

  it("filters by league_id, and 422s a malformed league_id in the query", async () => {
    const a = await newLeague({ divisions: [{ name: "A", level: 1 }] });
    await newLeague({ divisions: [{ name: "B", level: 1 }] });
    const res = await client(t.url).get<Division[]>(`/v2/divisions?league_id=${a.id}`);
    expect(res.body.map((d) => d.name)).toEqual(["A"]);
    const bad = await client(t.url).get<ValidationBody>("/v2/divisions?league_id=league_nope");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      loc: ["query", "league_id"],
      type: "string_pattern_mismatch",
      input: "league_nope",
    });
  });

  it("rejects a division id from another league and duplicate names, changing nothing", async () => {
    const a = await newLeague({ divisions: [{ name: "A", level: 1 }] });
    const b = await newLeague({ divisions: [{ name: "B", level: 1 }] });
    const bDiv = (await client(t.url).get<Division[]>(`/v2/divisions?league_id=${b.id}`)).body[0];
    const api = client(t.url, owner.token);
    const foreign = await api.put<ValidationBody>(`/v2/leagues/${a.id}/divisions`, [
      { id: bDiv?.id, name: "stolen", level: 1 },
    ]);
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0]?.loc).toEqual(["body", 0, "id"]);
    const dup = await api.put<ValidationBody>(`/v2/leagues/${a.id}/divisions`, [
      { name: "X", level: 1 },
      { name: "X", level: 2 },
    ]);
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]?.loc).toEqual(["body", 1, "name"]);
    expect(
      (await client(t.url).get<Division[]>(`/v2/divisions?league_id=${a.id}`)).body.map(
        (d) => d.name,
      ),
    ).toEqual(["A"]);
    expect((await client(t.url).get<Division>(`/v2/divisions/${bDiv?.id}`)).body.name).toBe("B");
  });

  it("hides the divisions of a private league and hidden divisions from others", async () => {
    const priv = await newLeague({ public: false, divisions: [{ name: "secret", level: 1 }] });
    const div = (
      await client(t.url, owner.token).get<Division[]>(`/v2/divisions?league_id=${priv.id}`)
    ).body[0];
    expect((await client(t.url).get(`/v2/divisions/${div?.id}`)).status).toBe(404);
    expect(
      (await client(t.url, other.token).get<Division[]>(`/v2/divisions?league_id=${priv.id}`)).body,
    ).toEqual([]);
    const pub = await newLeague({
      divisions: [
        { name: "open", level: 1 },
        { name: "backstage", level: 2, hidden: true },
      ],
    });
    expect(
      (await client(t.url).get<Division[]>(`/v2/divisions?league_id=${pub.id}`)).body.map(
        (d) => d.name,
      ),
    ).toEqual(["open"]);
    expect(
      (
        await client(t.url, owner.token).get<Division[]>(`/v2/divisions?league_id=${pub.id}`)
      ).body.map((d) => d.name),
    ).toEqual(["open", "backstage"]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

type Cell = {
  x: number;
  y: number;
  owner_player_id: string | null;
  captured_round_id: string | null;
};
type History = {
  round_id: string;
  player_id: string;
  x: number | null;
  y: number | null;
  previous_owner_player_id: string | null;
};
type Territory = { player_id: string; player_name: string | null; cells: number };
type Board = {
  league_id: string;
  geometry: { width: number; height: number };
  cells: Cell[];
  territory: Territory[];
  history: History[];
};
type Report = {
  dry_run: boolean;
  applied: boolean;
  from: { width: number; height: number };
  to: { width: number; height: number };
  cells_before: number;
  cells_after: number;
  territory_before: Record<string, number>;
  territory_after: Record<string, number>;
  history_entries: number;
};
type ValidationBody = { detail: { loc: (string | number)[]; msg: string; type: string }[] };

let t: TestServer;
let gameId: string;
let owner: { id: string; token: string };
let other: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  gameId = (
    await client(t.url, t.adminToken).post<{ id: string }>("/v2/games", {
      name: "gridrush",
      description: "a grid contest",
    })
  ).body.id;
  owner = await t.newUser();
  other = await t.newUser();
});
afterAll(async () => {
  await t.close();
});

async function newLeague(
  settings: Record<string, unknown>,
  isPublic = true,
): Promise<{ id: string; divisionId: string }> {
  const res = await client(t.url, owner.token).post<{ id: string }>("/v2/leagues", {
    name: "Campaign",
    game_id: gameId,
    public: isPublic,
    settings,
    divisions: [{ name: "Premier", level: 1 }],
  });
  expect(res.status).toBe(201);
  const divisions = await client(t.url, owner.token).get<{ id: string }[]>(
    `/v2/divisions?league_id=${res.body.id}`,
  );
  const division = divisions.body[0];
  if (!division) throw new Error("the league was created with one division");
  return { id: res.body.id, divisionId: division.id };
}

let roundNumber = 0;
/** A settled round as round-settle.ts leaves it: status completed with its ranked results. */
async function settleRound(
  league: { id: string; divisionId: string },
  ranking: string[],
): Promise<string> {
  const db = t.server.leaguePlay.db;
  roundNumber += 1;
  const id = `round_${String(roundNumber).padStart(8, "0")}-0000-4000-8000-000000000000`;
  const at = new Date(Date.UTC(2026, 0, 1, 0, roundNumber)).toISOString();
  await db
    .insertInto("rounds")
    .values({
      id,
      league_id: league.id,
      division_id: league.divisionId,
      round_number: roundNumber,
      status: "completed",
      active: null,
      commissioner_key: "default",
      execution_backend: "runners",
      coworld_id: "cw",
      round_config: "{}",
      round_display: "{}",
      episode_count: 1,
      error: null,
      started_at: at,
      completed_at: at,
      created_at: at,
    })
    .execute();
  await db
    .insertInto("round_results")
    .values(
      ranking.map((player, i) => ({
        id: `${id}-${i}`,
        round_id: id,
        division_id: league.divisionId,
        player_id: player,
        policy_version_id: null,
        rank: i + 1,
        score: ranking.length - i,
        result_metadata: "{}",
        created_at: at,
      })),
    )
    .execute();
  return id;
}

/** `token` null sends no Authorization header. */
const migrate = (leagueId: string, body?: unknown, token: string | null = owner.token) =>
  http<Report & ValidationBody>("POST", `${t.url}/v2/leagues/${leagueId}/campaign/migrate-board`, {
    ...(token === null ? {} : { token }),
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });

describe("the campaign board", () => {
  it("starts empty at the league's geometry and moves territory by the settled rounds, in order", async () => {
    const league = await newLeague({ campaign_board: { width: 3, height: 2 } });
    const empty = await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`);
    expect(empty.status).toBe(200);
    expect(empty.body.geometry).toEqual({ width: 3, height: 2 });
    expect(empty.body.cells).toHaveLength(6);
    expect(empty.body.cells.every((c) => c.owner_player_id === null)).toBe(true);

    const r1 = await settleRound(league, ["ply_a", "ply_b"]);
    const r2 = await settleRound(league, ["ply_b", "ply_a"]);
    const r3 = await settleRound(league, ["ply_a", "ply_b"]);
    const board = (await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body;
    const owners = board.cells.map((c) => `${c.x},${c.y}:${c.owner_player_id ?? "-"}`);
    expect(owners).toEqual(["0,0:ply_a", "1,0:ply_b", "2,0:ply_a", "0,1:-", "1,1:-", "2,1:-"]);
    expect(board.history.map((h) => h.round_id)).toEqual([r3, r2, r1]);
    // A second read applies nothing twice.
    const again = await client(t.url).get<History[]>(`/v2/leagues/${league.id}/campaign/history`);
    expect(again.body).toHaveLength(3);
  });

  it("captures a rival's cell once the board is full", async () => {
    const league = await newLeague({ campaign_board: { width: 1, height: 2 } });
    await settleRound(league, ["ply_a"]);
    await settleRound(league, ["ply_b"]);
    await settleRound(league, ["ply_b"]);
    const board = (await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body;
    expect(board.cells.map((c) => c.owner_player_id)).toEqual(["ply_b", "ply_b"]);
    expect(board.history[0]).toMatchObject({
      player_id: "ply_b",
      x: 0,
      y: 0,
      previous_owner_player_id: "ply_a",
    });
  });

  it("names who holds how many cells, most first", async () => {
    const league = await newLeague({ campaign_board: { width: 2, height: 2 } });
    const ada = (await client(t.url, owner.token).post<{ id: string }>("/players", { name: "ada" }))
      .body.id;
    const bob = (await client(t.url, other.token).post<{ id: string }>("/players", { name: "bob" }))
      .body.id;
    await settleRound(league, [bob, ada]);
    await settleRound(league, [ada, bob]);
    await settleRound(league, [bob, ada]);
    await settleRound(league, ["ply_gone"]);
    const board = (await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body;
    expect(board.territory).toEqual([
      { player_id: bob, player_name: "bob", cells: 2 },
      { player_id: ada, player_name: "ada", cells: 1 },
      { player_id: "ply_gone", player_name: null, cells: 1 },
    ]);
  });

  it("hides a private league's board from others", async () => {
    const league = await newLeague({}, false);
    expect((await client(t.url, other.token).get(`/v2/leagues/${league.id}/campaign`)).status).toBe(
      404,
    );
    expect((await client(t.url, owner.token).get(`/v2/leagues/${league.id}/campaign`)).status).toBe(
      200,
    );
  });
});

describe("migrate-board", () => {
  it("answers 401 without a bearer token", async () => {
    const league = await newLeague({});
    expect((await migrate(league.id, undefined, null)).status).toBe(401);
  });

  it("answers 422 for a league_id that does not match the pattern", async () => {
    const res = await migrate("league_not-a-uuid");
    expect(res.status).toBe(422);
    expect(res.body.detail[0]?.loc).toEqual(["path", "league_id"]);
  });

  it("treats no body and JSON null as a dry run", async () => {
    const league = await newLeague({ campaign_board: { width: 2, height: 2 } });
    for (const res of [await migrate(league.id), await migrate(league.id, null)]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        dry_run: true,
        applied: false,
        from: { width: 2, height: 2 },
        to: { width: 2, height: 2 },
        cells_before: 4,
        cells_after: 4,
      });
    }
  });

  it("refuses an extra property and a wrong type with 422 naming it", async () => {
    const league = await newLeague({});
    const extra = await migrate(league.id, { dry_run: true, force: 1 });
    expect(extra.status).toBe(422);
    expect(JSON.stringify(extra.body.detail)).toContain("force");
    expect(extra.body.detail[0]?.loc[0]).toBe("body");
    const wrong = await migrate(league.id, { dry_run: "no" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]?.loc).toEqual(["body", "dry_run"]);
  });

  it("lets only the commissioner or an admin migrate", async () => {
    const league = await newLeague({});
    expect((await migrate(league.id, {}, other.token)).status).toBe(403);
    const hidden = await newLeague({}, false);
    expect((await migrate(hidden.id, {}, other.token)).status).toBe(404);
    expect((await migrate(league.id, {}, t.adminToken)).status).toBe(200);
  });

  it("previews without change, then re-carves carrying territory and history in one go", async () => {
    const league = await newLeague({ campaign_board: { width: 4, height: 4 } });
    for (let i = 0; i < 4; i++) await settleRound(league, ["ply_a", "ply_b"]);
    for (let i = 0; i < 4; i++) await settleRound(league, ["ply_b", "ply_a"]);
    const before = (await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body;
    // Rows 0 and 1 of the 4×4 board: ply_a holds the first row, ply_b the second.
    const update = await client(t.url, owner.token).post(`/v2/leagues/${league.id}/settings`, {
      campaign_board: { width: 2, height: 2 },
    });
    expect(update.status).toBe(200);

    const preview = await migrate(league.id, { dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      dry_run: true,
      applied: false,
      from: { width: 4, height: 4 },
      to: { width: 2, height: 2 },
      cells_before: 16,
      cells_after: 4,
      territory_before: { ply_a: 4, ply_b: 4 },
      history_entries: 8,
    });
    expect((await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body).toEqual(
      before,
    );

    const done = await migrate(league.id, { dry_run: false });
    expect(done.status).toBe(200);
    expect({ ...done.body, dry_run: true, applied: false }).toEqual(preview.body);
    expect(done.body.applied).toBe(true);
    const after = (await client(t.url).get<Board>(`/v2/leagues/${league.id}/campaign`)).body;
    expect(after.geometry).toEqual({ width: 2, height: 2 });
    // Each new cell covers two old rows' halves: the top-left quarter is half ply_a, half ply_b;
    // the tie goes to the earlier old cell (ply_a); the bottom half was unowned.
    expect(after.cells.map((c) => c.owner_player_id)).toEqual(["ply_a", "ply_a", null, null]);
    expect(after.history).toHaveLength(8);
    expect(after.history.every((h) => h.x !== null && h.y !== null && h.x < 2 && h.y < 2)).toBe(
      true,
    );
    expect(preview.body.territory_after).toEqual({ ply_a: 2 });
  });
});

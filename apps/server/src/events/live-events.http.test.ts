// GET /v2/events over a real WebSocket: subscribing, what each subscriber may see, resuming
// with since_seq, the budgets (the upgrade is charged, its messages are not), and Redis fan-out
// between two replicas.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  CompactCompetitionEvent,
  CompetitionEvent,
  type EventsStreamInfo,
  type LeaderboardRow,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { redisReplicaEnv, startSharedStoreReplicas } from "../../testing/shared-store-replicas.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  scriptedRunner,
  type TestLeague,
} from "../../testing/test-league.ts";
import { openSocket } from "../../testing/test-socket.ts";

let t: TestServer;
const sockets: { close(): void }[] = [];

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      GAUNTLET_USER_CAPACITIES: JSON.stringify({ requestsPerMinute: 200 }),
    },
  });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

function socket(base: string, token?: string) {
  const s = openSocket(base, token);
  sockets.push(s);
  return s;
}

const isEvent = (type: string) => (m: Record<string, unknown>) =>
  m.type === type && typeof m.seq === "number";

async function triggerAndPlay(tl: TestLeague, strength: Record<string, number>): Promise<void> {
  const res = await client(t.url, tl.commissioner.token).post<{ rounds: { id: string }[] }>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  expect(res.body.rounds).toHaveLength(1);
  await (await scriptedRunner(t)).runQueued(byStrength(strength));
  const id = res.body.rounds[0]?.id ?? "";
  await eventually(
    `round ${id} to settle`,
    async () =>
      (await client(t.url).get<{ status: string }>(`/v2/rounds/${id}`)).body.status === "completed",
  );
}

describe("subscribing", () => {
  it("sends each standings change of a public division to an anonymous subscriber, as the feed shows it", async () => {
    const tl = await createTestLeague(t);
    const division = tl.divisions[0]?.id ?? "";
    const s = socket(t.url);
    const ack = await s.subscribe([`division:${division}`]);
    expect(ack.topics).toEqual([`division:${division}`]);

    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    await triggerAndPlay(tl, { Ada: 2, Bo: 1 });
    await triggerAndPlay(tl, { Ada: 2, Bo: 1 });
    // Two placements and two settled rounds: four different standings (the last event of all).
    await s.next(() => s.events().filter((e) => e.type === "standings_changed").length >= 4);

    const events = s.events();
    expect(events.every((e) => e.topic === `division:${division}` && e.seq > ack.seq)).toBe(true);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    const changes = events.filter((e) => e.type === "standings_changed");
    expect(changes).toHaveLength(4);
    const last = CompetitionEvent.parse(changes[changes.length - 1]?.data);
    const rows = (
      await client(t.url).get<LeaderboardRow[]>(`/v2/divisions/${division}/leaderboard`)
    ).body;
    expect(last.payload.rows).toEqual(
      rows.map((r) => ({
        rank: r.rank,
        player_id: r.player_id,
        player_name: r.player_name,
        score: r.score,
        rounds_played: r.rounds_played,
        episodes_played: r.episodes_played,
      })),
    );
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "submission_placed",
        "round_started",
        "episode_completed",
        "round_completed",
      ]),
    );
    const feed = await client(t.url).get<CompetitionEvent[]>(
      `/v2/competition-events?division_id=${division}&limit=500`,
    );
    expect(feed.body.map((e) => e.seq).reverse()).toEqual(events.map((e) => e.seq));
  });

  it("sends the compact form to a subscriber that asks for it: the same events without the embedded league and division, live and replayed", async () => {
    const tl = await createTestLeague(t);
    const division = tl.divisions[0]?.id ?? "";
    const full = socket(t.url);
    const compact = socket(t.url);
    const ack = await full.subscribe([`division:${division}`]);
    await compact.subscribe([`division:${division}`], undefined, { compact: true });

    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    await triggerAndPlay(tl, { Ada: 2, Bo: 1 });
    const settledRound = (s: ReturnType<typeof socket>) => () =>
      s.events().filter((e) => e.type === "standings_changed").length >= 3;
    await full.next(settledRound(full));
    await compact.next(settledRound(compact));

    const fullEvents = full.events();
    const compactEvents = compact.events();
    expect(compactEvents.map((e) => e.seq)).toEqual(fullEvents.map((e) => e.seq));
    let fullBytes = 0;
    let compactBytes = 0;
    fullEvents.forEach((live, i) => {
      const other = compactEvents[i];
      const whole = CompetitionEvent.parse(live.data);
      const small = CompactCompetitionEvent.parse(other?.data);
      expect(other?.data).not.toHaveProperty("league");
      expect(other?.data).not.toHaveProperty("division");
      const { league, division: its, ...rest } = whole;
      expect(small).toEqual({
        ...rest,
        league_id: league?.id ?? null,
        division_id: its?.id ?? null,
      });
      expect(small.division_id).toBe(division);
      fullBytes += JSON.stringify(live).length;
      compactBytes += JSON.stringify(other).length;
    });
    // The league and division were most of each message.
    expect(compactBytes).toBeLessThan(fullBytes / 2);

    // Resuming in the compact form replays compact events; `compact: false` returns to the full.
    const late = socket(t.url);
    await late.subscribe([`division:${division}`], ack.seq, { compact: true });
    await late.next(() => late.events().length >= fullEvents.length);
    expect(late.events().map((e) => e.seq)).toEqual(fullEvents.map((e) => e.seq));
    for (const e of late.events())
      expect(CompactCompetitionEvent.safeParse(e.data).success).toBe(true);
    await compact.subscribe([`division:${division}`], undefined, { compact: false });
    await triggerAndPlay(tl, { Ada: 1, Bo: 2 });
    const fullAgain = (m: Record<string, unknown>) =>
      typeof m.seq === "number" &&
      m.seq > (fullEvents[fullEvents.length - 1]?.seq ?? 0) &&
      m.type === "round_completed";
    const after = await compact.next(fullAgain);
    expect(CompetitionEvent.safeParse(after.data).success).toBe(true);
  });

  it("answers a plain GET with how to use the stream", async () => {
    const res = await client(t.url).get<EventsStreamInfo>("/v2/events");
    expect(res.status).toBe(200);
    expect(res.body.protocol).toBe("websocket");
    expect(res.body.last_seq).toBeGreaterThan(0);
  });

  it("refuses an upgrade with an invalid token, and keeps a connection open after a bad message", async () => {
    const refused = socket(t.url, "not-a-token");
    await expect(refused.opened).rejects.toThrow();
    const s = socket(t.url);
    await s.opened;
    s.send("{oops");
    s.send({ type: "subscribe", topics: [] });
    s.send({ type: "subscribe", topics: ["weather:today"] });
    await s.next((m) => m.type === "subscribed");
    expect(s.messages.filter((m) => m.type === "error")).toHaveLength(3);
    expect(
      s.messages.some((m) => m.type === "error" && String(m.message).includes("unknown topic")),
    ).toBe(true);
    const ack = await s.subscribe(["episode-requests:mine"]);
    expect(ack.topics).toEqual([]);
    expect(
      s.messages.some(
        (m) => m.type === "error" && String(m.message).includes("needs a bearer token"),
      ),
    ).toBe(true);
  });
});

describe("visibility", () => {
  it("gives a private league's events to its commissioner only, like the HTTP reads", async () => {
    const tl = await createTestLeague(t, { public: false });
    const division = tl.divisions[0]?.id ?? "";
    const anonymous = socket(t.url);
    const stranger = socket(t.url, (await t.newUser()).token);
    const commissioner = socket(t.url, tl.commissioner.token);
    expect(
      (await anonymous.subscribe([`division:${division}`, `league:${tl.league.id}`])).topics,
    ).toEqual([]);
    expect((await stranger.subscribe([`league:${tl.league.id}`])).topics).toEqual([]);
    expect(stranger.messages.find((m) => m.type === "error")?.message).toContain("not found");
    expect((await commissioner.subscribe([`league:${tl.league.id}`])).topics).toEqual([
      `league:${tl.league.id}`,
    ]);
    await tl.submit(await tl.addPlayer("Ada"));
    const placed = await commissioner.next(isEvent("submission_placed"));
    expect(placed.topic).toBe(`league:${tl.league.id}`);

    // Made private after subscribing: deliveries stop at once.
    const open = await createTestLeague(t);
    const watcher = socket(t.url);
    await watcher.subscribe([`league:${open.league.id}`]);
    await open.submit(await open.addPlayer("Bo"));
    await watcher.next(isEvent("submission_placed"));
    expect(
      (
        await client(t.url, open.commissioner.token).patch(`/v2/leagues/${open.league.id}`, {
          public: false,
        })
      ).status,
    ).toBe(200);
    const ownerView = socket(t.url, open.commissioner.token);
    await ownerView.subscribe([`league:${open.league.id}`]);
    await open.submit(await open.addPlayer("Cy"));
    // One hub hands each event to every subscriber at once: when the commissioner has it, the
    // anonymous watcher has been passed over.
    await ownerView.next(
      (m) =>
        m.type === "submission_placed" &&
        (m.data as { player: { name: string } }).player.name === "Cy",
    );
    expect(watcher.events().filter((e) => e.type === "submission_placed")).toHaveLength(1);
  });

  it("sends episode-requests:mine the episodes its user requested", async () => {
    const tl = await createTestLeague(t);
    const mine = socket(t.url, tl.commissioner.token);
    const other = socket(t.url, (await t.newUser()).token);
    await mine.subscribe(["episode-requests:mine"]);
    await other.subscribe(["episode-requests:mine"]);
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    await triggerAndPlay(tl, { Ada: 1, Bo: 0 });
    const done = await mine.next(isEvent("episode_completed"));
    expect(done.topic).toBe("episode-requests:mine");
    expect(mine.events().every((e) => e.type.startsWith("episode_"))).toBe(true);
    expect(other.events()).toEqual([]);
  });
});

describe("resuming", () => {
  it("replays what a subscriber missed after since_seq, in order and once, then goes on live", async () => {
    const tl = await createTestLeague(t);
    const topic = `league:${tl.league.id}`;
    const first = socket(t.url);
    await first.subscribe([topic]);
    await tl.submit(await tl.addPlayer("Ada"));
    const seen = await first.next(isEvent("standings_changed"));
    first.close();
    await first.closed;

    await tl.submit(await tl.addPlayer("Bo"));
    await triggerAndPlay(tl, { Ada: 1, Bo: 0 });
    const feed = (
      await client(t.url).get<CompetitionEvent[]>(
        `/v2/competition-events?league_id=${tl.league.id}&limit=500`,
      )
    ).body;
    const missed = feed
      .map((e) => e.seq)
      .filter((seq) => seq > Number(seen.seq))
      .sort((a, b) => a - b);
    expect(missed.length).toBeGreaterThan(3);

    const again = socket(t.url);
    const ack = await again.subscribe([topic], Number(seen.seq));
    expect(again.events().map((e) => e.seq)).toEqual(missed);
    expect(ack.seq).toBeGreaterThanOrEqual(missed[missed.length - 1] ?? 0);
    await tl.submit(await tl.addPlayer("Cy"));
    await again.next(
      (m) =>
        m.type === "submission_placed" &&
        (m.data as { player: { name: string } }).player.name === "Cy",
    );
    const seqs = again.events().map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});

describe("budgets", () => {
  it("charge the upgrade, not the messages: an open socket delivers after the budget is spent, a new one is refused", async () => {
    const user = await t.newUser();
    const api = client(t.url, user.token);
    const tl = await createTestLeague(t);
    const s = socket(t.url, user.token);
    await s.subscribe([`league:${tl.league.id}`]);
    let status = 200;
    for (let i = 0; i < 400 && status !== 429; i += 1) status = (await api.get("/whoami")).status;
    expect(status).toBe(429);
    await s.subscribe([`league:${tl.league.id}`]);
    await tl.submit(await tl.addPlayer("Ada"));
    await s.next(isEvent("submission_placed"));
    // The upgrade is a request like any other: refused (429) once the budget is spent (spent
    // again here: it refills while the event is on its way).
    status = 200;
    for (let i = 0; i < 400 && status !== 429; i += 1) status = (await api.get("/whoami")).status;
    expect(status).toBe(429);
    await expect(socket(t.url, user.token).opened).rejects.toThrow();
  });
});

describe("replicas with Redis", () => {
  it("delivers events recorded on one replica to the subscribers of another", async () => {
    const replicas = await startSharedStoreReplicas({
      ...redisReplicaEnv("redis://127.0.0.1:6379"),
      GAUNTLET_EVENTS_POLL_MS: "600000",
    });
    const { a, b } = replicas;
    try {
      await Promise.all([a.server.leaguePlay.bus.ready(), b.server.leaguePlay.bus.ready()]);
      const tl = await createTestLeague(a);
      const onB = socket(b.url);
      await onB.subscribe([`league:${tl.league.id}`]);
      await tl.submit(await tl.addPlayer("Ada"));
      // The poll is ten minutes away, beyond any test's patience: only Redis can bring it.
      const placed = await onB.next(isEvent("submission_placed"));
      expect(placed.topic).toBe(`league:${tl.league.id}`);
    } finally {
      await replicas.close();
    }
  });
});

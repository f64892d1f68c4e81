// League play end to end over real HTTP, with a runner as a separate process playing the
// example coworld's baseline players (SQLite, or PostgreSQL when DATABASE_URL is set): rounds
// run by themselves, standings order the baselines by strength, promotion moves the weakest
// down, a WebSocket subscriber sees every standings change, and a completion delivered twice
// counts once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  CompetitionEvent,
  EpisodeRequest,
  LeaguePolicyMembership,
  RoundDetail,
  RoundPage,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { startRunnerProcess, type RunnerProcess } from "../../testing/runner-process.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import {
  createTestLeague,
  eventually,
  type TestLeague,
  type TestPlayer,
} from "../../testing/test-league.ts";
import { openSocket, type TestSocket } from "../../testing/test-socket.ts";

let t: TestServer;
let runner: RunnerProcess | undefined;
const runnerOutput = () => runner?.output() ?? "";
let socket: TestSocket;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER_TICK_MS: "50" } });
  runner = await startRunnerProcess(t, "league-e2e", 2);
});

afterAll(async () => {
  socket?.close();
  await runner?.stop();
  await t?.close();
});

async function roundsOf(divisionId: string, status: string): Promise<RoundPage> {
  return (
    await client(t.url).get<RoundPage>(
      `/v2/rounds?division_id=${divisionId}&status=${status}&limit=200`,
    )
  ).body;
}

describe("league play with a runner process", () => {
  it(
    "plays rounds by itself, ranks the baselines by strength, relegates the weakest, streams every standings change, and counts a result once",
    async () => {
      const tl: TestLeague = await createTestLeague(t, {
        divisions: [
          { name: "Premier", level: 1 },
          { name: "Challenger", level: 2 },
        ],
        settings: {
          ranking: "elo",
          seating: "round_robin",
          // Odd, so one upset in a head-to-head cannot tie two players' Elo (a tie is ordered by id).
          episodes_per_pairing: 3,
          variant_id: "duel-small",
          // The variant's 40 turns, and patience for moves when the machine is busy (a late move is a lost one).
          game_config: { turn_timeout_ms: 2_000 },
          promotion: { promote: 1, relegate: 1, every_rounds: 2 },
        },
      });
      const [premier, challenger] = tl.divisions;
      if (!premier || !challenger) throw new Error("divisions");
      socket = openSocket(t.url);
      const { seq: startSeq } = await socket.subscribe([`league:${tl.league.id}`]);

      // Rounds wait until everyone is in: the league is paused while the baselines enter.
      expect(
        (
          await client(t.url, tl.commissioner.token).post(
            `/v2/leagues/${tl.league.id}/rounds-paused`,
            { paused: true },
          )
        ).status,
      ).toBe(200);
      const players: Record<string, TestPlayer> = {};
      for (const [name, baseline, division] of [
        ["Greedy", "greedy", premier.id],
        ["Wanderer", "wanderer", premier.id],
        ["Random", "random", premier.id],
        ["Wanderer B", "wanderer", challenger.id],
        ["Random B", "random", challenger.id],
      ] as const) {
        const player = await tl.addPlayer(name, { baseline });
        players[name] = player;
        await tl.submit(player, { preferences: { division_id: division } });
      }
      expect(
        (
          await client(t.url, tl.commissioner.token).post(
            `/v2/leagues/${tl.league.id}/rounds-paused`,
            { paused: false },
          )
        ).status,
      ).toBe(200);

      // Two Premier rounds: then promotion is due.
      const relegation = await eventually(
        `Random's relegation (runner output:\n${runnerOutput().slice(-2000)})`,
        async () =>
          (
            await client(t.url).get<CompetitionEvent[]>(
              `/v2/competition-events?league_id=${tl.league.id}&event_type=player_relegated`,
            )
          ).body[0],
        // Two rounds of nine episodes each on a runner: longer than one wait's patience.
        2 * PATIENCE_MS,
      );
      expect(relegation.player?.name).toBe("Random");
      expect(relegation.payload).toMatchObject({
        from_division_id: premier.id,
        to_division_id: challenger.id,
      });
      const promotion = (
        await client(t.url).get<CompetitionEvent[]>(
          `/v2/competition-events?league_id=${tl.league.id}&event_type=player_promoted`,
        )
      ).body[0];
      expect(promotion?.payload).toMatchObject({
        from_division_id: challenger.id,
        to_division_id: premier.id,
      });
      const random = await client(t.url).get<LeaguePolicyMembership[]>(
        `/v2/league-policy-memberships?player_id=${players.Random?.id ?? ""}&active_only=true`,
      );
      expect(random.body.map((m) => m.division.id)).toEqual([challenger.id]);

      // Strength order: the Premier standings after its first round, and both rounds' results.
      await t.server.leaguePlay.hub.catchUp();
      const settled = (await roundsOf(premier.id, "completed")).entries
        .sort((a, b) => a.round_number - b.round_number)
        .slice(0, 2);
      expect(settled.map((r) => r.round_number)).toEqual([1, 2]);
      for (const r of settled) {
        const detail = (await client(t.url).get<RoundDetail>(`/v2/rounds/${r.id}`)).body;
        expect(detail.results.map((x) => x.player?.name)).toEqual(["Greedy", "Wanderer", "Random"]);
      }
      const firstStandings = (
        await client(t.url).get<CompetitionEvent[]>(
          `/v2/competition-events?division_id=${premier.id}&round_id=${settled[0]?.id ?? ""}&event_type=standings_changed`,
        )
      ).body[0];
      const rows = firstStandings?.payload.rows as { player_name: string; score: number }[];
      expect(rows.map((r) => r.player_name)).toEqual(["Greedy", "Wanderer", "Random"]);
      expect(rows[0]?.score ?? 0).toBeGreaterThan(rows[2]?.score ?? 0);

      // Every standings change reached the subscriber, in order, once.
      const feed = (
        await client(t.url).get<CompetitionEvent[]>(
          `/v2/competition-events?league_id=${tl.league.id}&event_type=standings_changed&limit=500`,
        )
      ).body;
      const expected = feed
        .map((e) => e.seq)
        .filter((seq) => seq > startSeq)
        .sort((a, b) => a - b);
      const last = expected[expected.length - 1] ?? 0;
      await socket.next((m) => typeof m.seq === "number" && m.seq >= last);
      const received = socket
        .events()
        .filter((e) => e.type === "standings_changed")
        .map((e) => e.seq)
        .filter((seq) => seq <= last);
      expect(received).toEqual(expected);
      expect(expected.length).toBeGreaterThanOrEqual(7);

      // A completion after the fact from a machine without the lease is refused and changes nothing.
      const round = (await client(t.url).get<RoundDetail>(`/v2/rounds/${settled[0]?.id ?? ""}`))
        .body;
      const episodes = (
        await client(t.url).get<{ entries: EpisodeRequest[] }>(
          `/v2/episode-requests?round_id=${round.id}&limit=50`,
        )
      ).body.entries;
      // The seed an episode shows is the one its game played (gridrush reports it in its results).
      expect(episodes.length).toBeGreaterThan(0);
      for (const e of episodes) {
        const stats = await client(t.url).get<{ results: { seed?: number } | null }>(
          `/v2/episode-requests/${e.id}/episode-stats`,
        );
        expect(stats.body.results?.seed, e.id).toBe(e.seed);
      }
      const episode = episodes[0];
      if (!episode?.job_id) throw new Error("no episode");
      const machine = client(t.url, await t.machineToken("replay-report"));
      const again = await machine.post(`/v2/runner/jobs/${episode.job_id}/complete`, {
        runner_id: "league-e2e",
        results: { scores: [99, 0], winner_slot: 0, turns: 40, seed: 1 },
      });
      expect(again.status).toBe(403);
      const after = (await client(t.url).get<RoundDetail>(`/v2/rounds/${round.id}`)).body;
      expect(after.results).toEqual(round.results);
      const episodeAfter = (
        await client(t.url).get<EpisodeRequest>(`/v2/episode-requests/${episode.id}`)
      ).body;
      expect(episodeAfter.scores).toEqual(episode.scores);
    },
    3 * PATIENCE_MS,
  );
});

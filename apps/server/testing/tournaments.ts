// Tournaments over real HTTP, shared by the tournament suites: a server with the scheduler off, a
// league of five players, a scripted runner, and the calls the suites make.
import { afterAll, beforeAll } from "vitest";

import type { CompetitionEvent, LeasedJob, Tournament } from "@gauntlet/core";

import { client } from "./http.ts";
import { startTestServer, type TestServer } from "./start-server.ts";
import {
  createTestLeague,
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
  type TestPlayer,
} from "./test-league.ts";

export type ValidationBody = { detail: { loc: (string | number)[]; msg: string }[] };
export type ErrorBody = { detail: { type: string; message: string } };

export interface TournamentFixture {
  t: TestServer;
  tl: TestLeague;
  players: TestPlayer[];
  runner: ScriptedRunner;
}

/** The suite's server and league, made before its tests and closed after them. */
export function useTournamentFixture() {
  let made: TournamentFixture | undefined;
  beforeAll(async () => {
    const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
    const tl = await createTestLeague(t);
    const players: TestPlayer[] = [];
    for (const name of ["Ann", "Bob", "Cid", "Dee", "Eve"]) players.push(await tl.addPlayer(name));
    made = { t, tl, players, runner: await scriptedRunner(t, "cup-runner") };
  }, 60_000);
  afterAll(async () => {
    await made?.t.close();
  });
  const current = (): TournamentFixture => {
    if (!made) throw new Error("the fixture is made in beforeAll; use it inside a test");
    return made;
  };
  const api = () => client(current().t.url, current().tl.commissioner.token);
  const versions = (count: number) =>
    current()
      .players.slice(0, count)
      .map((p) => p.policyVersionId);
  const create = (
    body: Record<string, unknown>,
    token = current().tl.commissioner.token,
    leagueId = current().tl.league.id,
  ) =>
    client(current().t.url, token).post<Tournament & ValidationBody & ErrorBody>(
      `/v2/leagues/${leagueId}/tournaments`,
      body,
    );
  /** The league feed's events of one tournament, oldest first. */
  const tournamentEvents = async (id: string) => {
    const { t, tl } = current();
    const feed = await client(t.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}&limit=200`,
    );
    return feed.body.filter((e) => e.payload.tournament_id === id).sort((a, b) => a.seq - b.seq);
  };
  const act = (id: string, action: string, token = current().tl.commissioner.token) =>
    client(current().t.url, token).post<Tournament & ErrorBody>(`/v2/tournaments/${id}:${action}`);
  /** Plays what the runner finds queued until the tournament leaves `running`. */
  const playOut = (id: string, scorer: (names: string[], job: LeasedJob) => number[]) =>
    eventually(`tournament ${id} to end`, async () => {
      await current().runner.runQueued(scorer);
      const now = (await api().get<Tournament>(`/v2/tournaments/${id}`)).body;
      return now.status === "running" ? null : now;
    });
  return { current, api, versions, create, tournamentEvents, act, playOut };
}

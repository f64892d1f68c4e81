// A league run by its coworld's own commissioner, over real HTTP with a scripted runner: the
// commissioner (testing/scripted-commissioner.ts, a program speaking the hosted protocol) makes
// the divisions, the rounds and the episodes; its reverse ranking becomes the round's results and
// the standings follow it; its membership event moves a membership; and a commissioner that
// throws, hangs, sends garbage, hands back an oversized state or ranks a version it may not fails
// only its round, after which the league runs again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type {
  CompetitionEvent,
  Division,
  EpisodeRequest,
  LeaderboardRow,
  LeaguePolicyMembership,
  RoundDetail,
} from "@gauntlet/core";

import {
  FAST_COMMISSIONER_ENV,
  commissionedLeague as newLeague,
  untilRound as playUntil,
} from "../../../testing/commissioned-league.ts";
import { client } from "../../../testing/http.ts";
import { scriptedLauncher, type ScriptedMode } from "../../../testing/scripted-commissioner.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import {
  eventually,
  scriptedRunner,
  type ScriptedRunner,
  type TestLeague,
} from "../../../testing/test-league.ts";

const launcher = scriptedLauncher();
let t: TestServer;
let runner: ScriptedRunner;

beforeAll(async () => {
  t = await startTestServer({
    env: FAST_COMMISSIONER_ENV,
    commissionerLauncher: launcher,
  });
  runner = await scriptedRunner(t);
});
afterAll(async () => {
  await t?.close();
});

const commissionedLeague = () => newLeague(t);
const untilRound = (
  tl: TestLeague,
  status: "completed" | "failed",
  where?: (r: RoundDetail) => boolean,
) => playUntil(t, runner, tl, status, where);

describe("a coworld commissioner runs its league", () => {
  it("makes the divisions, ranks the round its own way, and the standings and memberships follow", async () => {
    launcher.mode = "fair";
    const tl = await commissionedLeague();
    const round = await untilRound(tl, "completed");

    // Migration: the league's division renamed (it keeps its id and age), a second one made,
    // none archived.
    const divisions = (
      await client(t.url).get<Division[]>(`/v2/divisions?league_id=${tl.league.id}`)
    ).body;
    expect(divisions.map((d) => d.name).sort()).toEqual(["Open", "Pro"]);
    const open = divisions.find((d) => d.name === "Open");
    const pro = divisions.find((d) => d.name === "Pro");
    expect(Date.parse(open?.created_at ?? "")).toBeLessThan(Date.parse(pro?.created_at ?? ""));
    const league = await t.server.store.db
      .selectFrom("leagues")
      .select("commissioner_migration_version")
      .where("id", "=", tl.league.id)
      .executeTakeFirstOrThrow();
    expect(league.commissioner_migration_version).toMatch(/^reverse@/);

    // Reverse ranking: the weakest by score is first.
    const byRank = [...round.results].sort((a, b) => a.rank - b.rank).map((r) => r.player?.name);
    expect(byRank).toEqual(["Cy", "Bo", "Ada"]);
    expect(round.division.id).toBe(open?.id);
    expect(round.commissioner).toMatchObject({ kind: "coworld", runnable_id: "reverse" });

    // The winner of the ranking moved to Pro; the standings of Open follow the ranking.
    const memberships = (
      await client(t.url, tl.commissioner.token).get<LeaguePolicyMembership[]>(
        `/v2/league-policy-memberships?league_id=${tl.league.id}`,
      )
    ).body;
    const cy = memberships.find((m) => m.player?.name === "Cy");
    expect(cy?.division.id).toBe(pro?.id);
    // The feed says so, as it does for the built-in's promotions, naming the commissioner's rule.
    const feed = await client(t.url).get<CompetitionEvent[]>(
      `/v2/competition-events?league_id=${tl.league.id}`,
    );
    const higher = (pro?.level ?? 0) < (open?.level ?? 0);
    expect(
      feed.body
        .filter((e) => e.event_type === "player_promoted" || e.event_type === "player_relegated")
        .map((e) => [e.event_type, e.player?.name, e.payload["rule"]]),
    ).toContainEqual([higher ? "player_promoted" : "player_relegated", "Cy", "commissioner"]);
    const board = await eventually("Open's standings", async () => {
      const rows = (
        await client(t.url).get<LeaderboardRow[] | null>(`/v2/divisions/${open?.id}/leaderboard`)
      ).body;
      return rows && rows.length >= 2 ? rows : null;
    });
    // The standings follow the commissioner's ranks (Bo above Ada, against the game's scores):
    // the rating they moved (`form`), the published score fitted to the record, and the order.
    const form = new Map(board.map((r) => [r.player_name, r.form ?? r.score]));
    expect(form.get("Bo") ?? 0).toBeGreaterThan(form.get("Ada") ?? 0);
    const score = new Map(board.map((r) => [r.player_name, r.score]));
    expect(score.get("Bo") ?? 0).toBeGreaterThan(score.get("Ada") ?? 0);
    expect(board.map((r) => r.player_name).indexOf("Bo")).toBeLessThan(
      board.map((r) => r.player_name).indexOf("Ada"),
    );

    // The episodes carry the commissioner's tags and overrides.
    const episodes = await t.server.store.db
      .selectFrom("episode_requests")
      .select(["tags", "game_config_overrides", "commissioner_request_id", "game_config"])
      .where("round_id", "=", round.id)
      .execute();
    expect(episodes).toHaveLength(3);
    for (const e of episodes) expect(JSON.parse(e.game_config)).toMatchObject({ turns: 5 });
    const page = (
      await client(t.url, tl.commissioner.token).get<{ entries: EpisodeRequest[] }>(
        `/v2/episode-requests?round_id=${round.id}`,
      )
    ).body;
    expect(page.entries).toHaveLength(3);
    for (const e of page.entries) {
      expect(e.tags).toMatchObject({ stage: "reverse" });
      expect(e.game_config_overrides).toEqual({ turns: 5, width: 5, height: 5 });
    }

    // The state handed back comes back in the next round_start.
    const stored = await t.server.store.db
      .selectFrom("rounds")
      .select("commissioner_state")
      .where("id", "=", round.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.commissioner_state ?? "null")).toEqual({ rounds: 1 });
  });

  const failures: [ScriptedMode, RegExp][] = [
    ["throws", /crashed/],
    ["hangs", /timeout/],
    ["garbage", /malformed/],
    ["unknown_version", /malformed.*not a policy version/],
  ];
  for (const [mode, reason] of failures) {
    it(`a commissioner that ${mode.replace("_", " ")} fails only its round, and the league recovers`, async () => {
      launcher.mode = mode;
      const tl = await commissionedLeague();
      const failed = await untilRound(tl, "failed");
      expect(failed.error).toMatch(reason);
      expect(failed.results).toEqual([]);
      if (mode === "throws") {
        // The league's owner reads what the commissioner printed; the public does not.
        const owned = (
          await client(t.url, tl.commissioner.token).get<RoundDetail>(`/v2/rounds/${failed.id}`)
        ).body;
        expect(owned.commissioner_log).toMatch(/fell over/);
        expect(failed.commissioner_log ?? null).toBeNull();
      }
      launcher.mode = "fair";
      const next = await untilRound(tl, "completed");
      expect(next.results.length).toBeGreaterThan(0);
    });
  }

  it("a commissioner whose state is past 10 MiB still completes its round; the state is not kept", async () => {
    launcher.mode = "oversized_state";
    const tl = await commissionedLeague();
    const round = await untilRound(tl, "completed");
    expect(round.results.length).toBeGreaterThan(0);
    const owned = (
      await client(t.url, tl.commissioner.token).get<RoundDetail>(`/v2/rounds/${round.id}`)
    ).body;
    expect(owned.commissioner_log).toMatch(/past the limit .* not kept/);
    const stored = await t.server.store.db
      .selectFrom("rounds")
      .select("commissioner_state")
      .where("id", "=", round.id)
      .executeTakeFirstOrThrow();
    expect(stored.commissioner_state).toBeNull();
  });
});

// The demo league (as `pnpm start` makes it: six baseline players in Premier and Challenger,
// Elo, adaptive seating, one up and one down every three Premier rounds) played for a simulated
// hour as fast as the server goes, to show that no division stays quiet with a promotion
// pending. At minute 20 a newcomer stronger than every baseline enters (into Challenger, as a
// user's submission does), and at minute 35 it submits a new version: the first hour.
//
//   node bench/demo-league/run.ts                      (SQLite; DATABASE_URL=postgres://… for PostgreSQL)
//   BENCH_MINUTES=120 BENCH_SEED=7 node bench/demo-league/run.ts
//
// The fast part: the scheduler is ticked by this script, and a scripted runner answers every
// episode at once with scores drawn from the players' strengths (noisy, so that settling takes
// the rounds it takes). The simulated clock charges each batch of episodes EPISODE_SECONDS per
// episode over RUNNER_SLOTS slots, and an idle tick one scheduler tick (1 s); a stretch in
// which nothing happens is skipped to the next scripted entry. Prints when each division last
// played, the moves, and every moment a boundary stood quiet with a move pending (must be none):
// pending means both divisions quiet with every rank settled while a player entered or changed
// champion after the boundary's last move.
import type { CompetitionEvent, LeaguePolicyMembership } from "@gauntlet/core";
import { createDemoLeague, createRng, registerExampleCoworld } from "@gauntlet/server/bench";
import {
  client,
  gridrushBundle,
  scriptedRunner,
  startTestServer,
  type Scorer,
} from "@gauntlet/server/testing";

const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);
const SEED = process.env.BENCH_SEED ?? "1";
/** A 30-turn duel on the embedded runner, about what `pnpm start` shows on a laptop. */
const EPISODE_SECONDS = 4;
const RUNNER_SLOTS = 2;
const TICK_SECONDS = 1;
const NEWCOMER_AT = 20 * 60;
const RESUBMIT_AT = 35 * 60;

/** Log-strengths by the baseline's name (without its A/B team letter), and the newcomer's. */
const STRENGTH: Record<string, number> = { Greedy: 2, Wanderer: 1, Random: 0, Newcomer: 3 };

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

async function main(): Promise<void> {
  const started = Date.now();
  const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  try {
    const coworld = await registerExampleCoworld(t.server.store, t.server.context.blobs);
    if (!coworld) throw new Error("the example coworld was not registered");
    const { db, bus, scheduler } = t.server.leaguePlay;
    const demo = await createDemoLeague(db, t.server.context.blobs, bus, coworld);
    if (!demo) throw new Error("no demo league");
    const leagueId = demo.league.id;
    const [premier, challenger] = demo.divisions;
    if (!premier || !challenger) throw new Error("the demo league has no two divisions");
    const runner = await scriptedRunner(t);
    const rng = createRng(`demo-league:${SEED}`);
    // Each seat scores its strength plus logistic noise: the stronger finishes ahead more often.
    const scorer: Scorer = (names) =>
      names.map((name) => {
        const u = Math.min(Math.max(rng.next(), 1e-9), 1 - 1e-9);
        return (STRENGTH[name.split(" ")[0] ?? ""] ?? 0) + Math.log(u / (1 - u));
      });

    const newcomer = await t.newUser();
    const api = client(t.url, newcomer.token);
    const bundle = await fetch(`${t.url}/v2/policy-bundles/upload`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${newcomer.token}`,
        "content-type": "application/octet-stream",
      },
      body: await gridrushBundle(),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const player = await api.post<{ id: string }>("/players", { name: "Newcomer" });
    const submitNewcomer = async () => {
      const version = await api.post<{ id: string }>("/stats/policies/docker-img/complete", {
        name: "newcomer-bot",
        policy_bundle_id: bundle.id,
        run: ["node", "players/greedy.ts"],
        player_id: player.body.id,
      });
      const res = await api.post("/v2/league-submissions", {
        league_id: leagueId,
        policy_version_id: version.body.id,
        player_id: player.body.id,
      });
      if (res.status !== 201) throw new Error(`newcomer's submission: ${res.status} ${res.text}`);
    };
    const script = [
      { at: NEWCOMER_AT, what: "the newcomer enters", run: submitNewcomer },
      { at: RESUBMIT_AT, what: "the newcomer submits a new version", run: submitNewcomer },
    ];

    const feed = async (query: string) =>
      (await client(t.url).get<CompetitionEvent[]>(`/v2/competition-events?${query}&limit=500`))
        .body;
    const quietSettled = async (divisionId: string) => {
      const last = (await feed(`division_id=${divisionId}`)).find(
        (e) => e.event_type === "round_started" || e.event_type === "division_quiet",
      );
      return last?.event_type === "division_quiet" && last.payload.reason === "settled";
    };
    /** Both quiet and settled, with an entry or champion change newer than the last move. */
    const pending = async () => {
      if (!(await quietSettled(premier.id)) || !(await quietSettled(challenger.id))) return false;
      const events = await feed(`league_id=${leagueId}`);
      const change = events.find((e) =>
        ["submission_placed", "champion_changed", "membership_retired"].includes(e.event_type),
      );
      const move = events.find(
        (e) => e.event_type === "player_promoted" || e.event_type === "player_relegated",
      );
      return change !== undefined && (move === undefined || move.seq < change.seq);
    };

    const last = new Map<string, number>();
    const rounds = new Map<string, number>();
    const moves: string[] = [];
    const violations: string[] = [];
    const names = new Map(demo.divisions.map((d) => [d.id, d.name]));
    let now = 0;
    let idle = 0;
    let lastMove = 0;
    while (now < MINUTES * 60) {
      const due = script[0];
      if (due && now >= due.at) {
        script.shift();
        await due.run();
        console.log(`${clock(now)}  ${due.what}`);
      }
      const jobs = await runner.runQueued(scorer);
      now += Math.ceil(jobs.length / RUNNER_SLOTS) * EPISODE_SECONDS;
      const before = (await feed(`league_id=${leagueId}&event_type=round_started`))[0]?.seq ?? 0;
      const report = await scheduler.tick();
      now += TICK_SECONDS;
      for (const e of (await feed(`league_id=${leagueId}&event_type=round_started`)).filter(
        (e) => e.seq > before,
      )) {
        const id = e.division?.id ?? "";
        last.set(id, now);
        rounds.set(id, (rounds.get(id) ?? 0) + 1);
      }
      const newMoves = [
        ...(await feed(`league_id=${leagueId}&event_type=player_promoted`)),
        ...(await feed(`league_id=${leagueId}&event_type=player_relegated`)),
      ]
        .filter((e) => e.seq > lastMove)
        .sort((a, b) => a.seq - b.seq);
      for (const e of newMoves)
        moves.push(
          `${clock(now)}  ${e.headline} [${e.payload.rule === "settled" ? "settled" : "rounds"}]`,
        );
      lastMove = newMoves.at(-1)?.seq ?? lastMove;
      const busy =
        jobs.length + report.started.length + report.settled.length + report.moved.length > 0;
      idle = busy ? 0 : idle + 1;
      if (idle >= 2) {
        if (await pending()) violations.push(clock(now));
        // Nothing happens until the next scripted entry: skip to it (or to the end).
        now = Math.max(now, Math.min(script[0]?.at ?? MINUTES * 60, MINUTES * 60));
      }
    }

    const champions = await client(t.url).get<LeaguePolicyMembership[]>(
      `/v2/league-policy-memberships?league_id=${leagueId}&champions_only=true`,
    );
    console.log(`\nmoves (simulated time, headline, rule):`);
    for (const m of moves) console.log(`  ${m}`);
    console.log(`\ndivision     rounds  last round started  quiet (every rank settled) at the end`);
    for (const d of demo.divisions) {
      console.log(
        `${(names.get(d.id) ?? d.id).padEnd(12)} ${String(rounds.get(d.id) ?? 0).padStart(6)}  ${clock(last.get(d.id) ?? 0).padStart(18)}  ${String(await quietSettled(d.id))}`,
      );
    }
    for (const d of demo.divisions)
      console.log(
        `${d.name}: ${champions.body
          .filter((m) => m.division.id === d.id)
          .map((m) => m.player?.name ?? "?")
          .sort()
          .join(", ")}`,
      );
    console.log(
      `\nsimulated ${MINUTES} min in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `quiet with a move pending: ${violations.length === 0 ? "never" : violations.join(", ")}`,
    );
    if (violations.length > 0) process.exitCode = 1;
  } finally {
    await t.close();
  }
}

await main();

// The fair work queue (issue "Fair share", item 1): a league whose rounds queue beside three
// users' bursts of evaluations, on one runner of capacity 2. Runs a real server (SQLite; set
// DATABASE_URL for PostgreSQL) and plays the runner over HTTP in simulated time: every episode
// lasts a fixed number of simulated seconds (evaluations the issue's slow "sleepers", rounds
// shorter), the clock steps 5 s at a time, and each step completes what has ended and leases
// what the free slots take. Prints, beside each class's configured weight, its part of the busy
// slot time while both classes had work waiting and of the slots handed out meanwhile (what the
// weights share out; a running episode is never taken back, so slot time lags the grants), each user's part of
// the evaluations' slots, and each league round's wait: its first episode's queue position in
// the fair order (as the API shows it) beside the position it would have had by age alone, and
// the simulated seconds until its first episode started.
//
//   node bench/queue/run.ts
//   BENCH_CAPACITY=4 BENCH_EVAL_SECONDS=120 node bench/queue/run.ts
//
// Not a test: the figures depend on the scenario below, not on the machine.
import type { EpisodeRequest, ExperienceRequestDetail, LeasedJob } from "@gauntlet/core";
import {
  client,
  createTestLeague,
  scriptedRunner,
  startTestServer,
  type TestPlayer,
} from "@gauntlet/server/testing";

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 2);
const EVAL_SECONDS = Number(process.env.BENCH_EVAL_SECONDS ?? 60);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 30);
const STEP = 5;
/** A round is started every this many simulated seconds (skipped while one runs). */
const ROUND_EVERY = 120;
/** Bursts: who submits how many episodes when (simulated seconds). */
const BURSTS: { user: number; at: number; episodes: number }[] = [
  { user: 0, at: 0, episodes: 20 },
  { user: 1, at: 90, episodes: 10 },
  { user: 2, at: 150, episodes: 4 },
  { user: 2, at: 300, episodes: 4 },
  { user: 0, at: 420, episodes: 20 },
  { user: 1, at: 480, episodes: 10 },
  { user: 2, at: 450, episodes: 4 },
  { user: 2, at: 600, episodes: 4 },
];
const LAST_ROUND_AT = 900;

const t = await startTestServer({
  env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RATE_LIMIT_MODE: "off" },
});
const weights = t.server.context.config.queueShares.weights;
const cap = t.server.context.config.queueShares.userCap;
const tl = await createTestLeague(t);
// Five champions: a round robin round of 10 episodes, enough to keep the league waiting too.
for (const name of ["Ada", "Bo", "Cy", "Dee", "Eve"]) await tl.submit(await tl.addPlayer(name));
const users: { name: string; token: string; seats: TestPlayer[] }[] = [];
for (const name of ["ann", "bea", "cal"]) {
  const user = await t.newUser();
  const owner = { token: user.token };
  users.push({
    name,
    token: user.token,
    seats: [
      await tl.addPlayer(`${name}-1`, { owner }),
      await tl.addPlayer(`${name}-2`, { owner, baseline: "random" }),
    ],
  });
}
const runner = await scriptedRunner(t, "bench-queue");

type Kind = "league" | "evaluation";
interface Waiting {
  kind: Kind;
  owner: string;
  createdAt: string;
  id: string;
}
/** Every episode this bench queued and that has not started, by id. */
const queued = new Map<string, Waiting>();
const running: { job: LeasedJob; kind: Kind; owner: string; ends: number }[] = [];
const slotSeconds: Record<string, number> = {};
const contendedSlotSeconds: Record<Kind, number> = { league: 0, evaluation: 0 };
const leasedCount: Record<Kind, number> = { league: 0, evaluation: 0 };
/** Slots handed out while both classes had work waiting, by the class that got them. */
const contendedGrants: Record<Kind, number> = { league: 0, evaluation: 0 };
const rounds: {
  id: string;
  at: number;
  episodes: Set<string>;
  fairPosition: number;
  byAge: number;
  startedAt: number | null;
}[] = [];

async function evaluate(user: (typeof users)[number], episodes: number): Promise<void> {
  const res = await client(t.url, user.token).post<ExperienceRequestDetail>(
    "/v2/experience-requests",
    {
      coworld_id: tl.coworldId,
      roster: user.seats.map((s) => ({ player: { policy_ref: s.policyVersionId } })),
      num_episodes: episodes,
      game_config_overrides: { turns: 5, width: 5, height: 5 },
    },
  );
  if (res.status !== 201) throw new Error(`evaluation: ${res.status} ${res.text}`);
  for (const e of res.body.episodes)
    queued.set(e.id, { kind: "evaluation", owner: user.name, createdAt: e.created_at, id: e.id });
}

async function startRound(at: number): Promise<void> {
  const res = await client(t.url, tl.commissioner.token).post<{ rounds: { id: string }[] }>(
    `/v2/leagues/${tl.league.id}/trigger-round`,
    {},
  );
  const round = res.body.rounds[0];
  if (res.status !== 200 || !round) return;
  const episodes = (
    await client(t.url, t.adminToken).get<{ entries: EpisodeRequest[] }>(
      `/v2/episode-requests?round_id=${round.id}&limit=100`,
    )
  ).body.entries;
  const first = Math.min(...episodes.map((e) => e.queue_position ?? Infinity));
  const oldest = episodes.map((e) => e.created_at).sort()[0] ?? "";
  // By age alone: every episode queued before the round's goes first.
  const ahead = [...queued.values()].filter((w) => w.createdAt < oldest).length;
  for (const e of episodes)
    queued.set(e.id, { kind: "league", owner: "league", createdAt: e.created_at, id: e.id });
  rounds.push({
    id: round.id,
    at,
    episodes: new Set(episodes.map((e) => e.id)),
    fairPosition: first,
    byAge: ahead + 1,
    startedAt: null,
  });
}

const kindsWaiting = () => new Set([...queued.values()].map((w) => w.kind));

let now = 0;
for (; now <= LAST_ROUND_AT || queued.size > 0 || running.length > 0; now += STEP) {
  for (const burst of BURSTS.filter((b) => b.at === now)) {
    const user = users[burst.user];
    if (user) await evaluate(user, burst.episodes);
  }
  if (now > 0 && now % ROUND_EVERY === 0 && now <= LAST_ROUND_AT) await startRound(now);
  for (const r of [...running].filter((r) => r.ends <= now)) {
    await runner.complete(
      r.job,
      r.job.players.map(() => 0),
    );
    running.splice(running.indexOf(r), 1);
  }
  const free = CAPACITY - running.length;
  if (free > 0)
    for (const job of await runner.lease(free)) {
      const waiting = queued.get(job.episode_request_id);
      const bothWaiting = kindsWaiting().size === 2;
      const kind = waiting?.kind ?? "evaluation";
      const owner = waiting?.owner ?? "?";
      queued.delete(job.episode_request_id);
      leasedCount[kind] += 1;
      if (bothWaiting) contendedGrants[kind] += 1;
      running.push({
        job,
        kind,
        owner,
        ends: now + (kind === "league" ? ROUND_SECONDS : EVAL_SECONDS),
      });
      for (const round of rounds)
        if (round.startedAt === null && round.episodes.has(job.episode_request_id))
          round.startedAt = now;
    }
  // Slot use over the next step, and whether both classes had work waiting meanwhile.
  const contended = kindsWaiting().size === 2;
  for (const r of running) {
    slotSeconds[r.owner] = (slotSeconds[r.owner] ?? 0) + STEP;
    if (contended) contendedSlotSeconds[r.kind] += STEP;
  }
}
await t.close();

const pct = (n: number, total: number) => `${total === 0 ? 0 : Math.round((100 * n) / total)}%`;
const contendedTotal = contendedSlotSeconds.league + contendedSlotSeconds.evaluation;
const weightTotal = weights.league + weights.evaluation;
console.log(
  `runner capacity ${CAPACITY}; evaluation episodes ${EVAL_SECONDS} s, round episodes ${ROUND_SECONDS} s (simulated); per-user cap ${cap}; ${now} s simulated`,
);
const grantsTotal = contendedGrants.league + contendedGrants.evaluation;
console.log(
  "\nclass        weight  share by weight  slot time while both wait  slots granted while both wait  jobs leased",
);
for (const kind of ["league", "evaluation"] as const)
  console.log(
    `${kind.padEnd(12)} ${String(weights[kind]).padStart(6)}  ${pct(weights[kind], weightTotal).padStart(15)}  ${pct(contendedSlotSeconds[kind], contendedTotal).padStart(25)}  ${`${pct(contendedGrants[kind], grantsTotal)} (${contendedGrants[kind]})`.padStart(29)}  ${String(leasedCount[kind]).padStart(11)}`,
  );
const evalTotal = users.reduce((n, u) => n + (slotSeconds[u.name] ?? 0), 0);
console.log("\nuser  episodes  part of the evaluations' slot time");
for (const u of users) {
  const episodes = BURSTS.filter((b) => users[b.user] === u).reduce((n, b) => n + b.episodes, 0);
  console.log(
    `${u.name}   ${String(episodes).padStart(8)}  ${pct(slotSeconds[u.name] ?? 0, evalTotal)}`,
  );
}
console.log("\nround at   fair position  position by age  first episode started after");
for (const r of rounds)
  console.log(
    `${String(r.at).padStart(6)} s  ${String(r.fairPosition).padStart(13)}  ${String(r.byAge).padStart(15)}  ${r.startedAt === null ? "-" : `${r.startedAt - r.at} s`}`,
  );
const worst = (f: (r: (typeof rounds)[number]) => number) => Math.max(...rounds.map(f));
console.log(
  `\nworst wait of a league round: position ${worst((r) => r.fairPosition)} (by age it would have been ${worst((r) => r.byAge)}); first episode started within ${worst((r) => (r.startedAt ?? Infinity) - r.at)} s (one evaluation episode is ${EVAL_SECONDS} s)`,
);

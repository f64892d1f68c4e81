// The server's inner parts that the benchmarks in bench/ measure below the HTTP API, as one entry
// point (`@gauntlet/server/bench`) so that no benchmark reaches into the source tree. Tests and
// production code never import it.
export { createDemoLeague, DEMO_EMAIL } from "../src/embedded/demo.ts";
export { registerExampleCoworld } from "../src/embedded/example-coworld.ts";
export { createEpisode } from "../src/episodes/episodes.ts";
export { complete } from "../src/episodes/job-completion.ts";
export { lease } from "../src/episodes/work-queue.ts";
export { ingestRows } from "../src/evaluations/bulk-upload.ts";
export { readEpisodeFile } from "../src/evaluations/duckdb-episodes.ts";
export { withEvents } from "../src/events/record.ts";
export { FIRST_ADMIN_EMAIL } from "../src/identity/first-admin.ts";
export { createApiToken } from "../src/identity/tokens.ts";
export { createUser, findUserByEmail } from "../src/identity/users.ts";
export { seatSubject, settleRound } from "../src/leagues/round-settle.ts";
export { laplaceStrengths } from "../src/leagues/rules/confidence/laplace.ts";
export { projectedStrengths } from "../src/leagues/rules/confidence/projection.ts";
export { drawEpisode } from "../src/leagues/rules/confidence/synthetic.ts";
export { applyEpisode, applyRound, closeRound, createRng } from "../src/leagues/rules/index.ts";
export type { RatingState, Rng, SettledEpisode } from "../src/leagues/rules/index.ts";
export { REVALIDATE_MS } from "../src/leagues/standings-read.ts";
export { createLimiter } from "../src/limiter/limiter.ts";
export { MemoryBudgetStore } from "../src/limiter/memory-store.ts";
export { RedisBudgetStore } from "../src/limiter/redis-store.ts";
export type { BudgetStore } from "../src/limiter/store.ts";
export { LadderSimulation, type SimulatedPlayer } from "./ladder-simulation.ts";

import { preset, testWorkers } from "@gauntlet/vitest-config";

// The server's suite is the longest (some 150 files, each setting itself up): two workers even
// on a 2-core machine, where one left half the machine idle (CI: 1,228 s of wall time for 673 s
// of tests). GAUNTLET_TEST_WORKERS still decides when given; the end to end keeps the preset's.
const ownWorkers =
  !process.env.GAUNTLET_TEST_WORKERS && process.env.npm_lifecycle_event !== "test:e2e";

export default preset(
  import.meta.dirname,
  ownWorkers ? { maxWorkers: Math.max(2, testWorkers()) } : {},
  // /healthz's latency under a replay flood: beside another file on a busy 2-core machine it
  // measured that file's load too.
  { alone: ["src/events/replay-load.http.test.ts"] },
);

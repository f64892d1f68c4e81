// A deliberately broken player for tests: it plays greedily, then dies mid-game without
// closing its socket (exit code 3). GRIDRUSH_CRASH_AT_TURN sets the turn (default 3).
import { play } from "../players/client.ts";
import { greedy } from "../players/strategies.ts";

const crashAt = Number(process.env.GRIDRUSH_CRASH_AT_TURN ?? "3");

play("crasher", greedy, {
  beforeMove(turn) {
    if (turn >= crashAt) {
      process.stderr.write(`crasher: crashing at turn ${turn}\n`);
      process.exit(3);
    }
  },
});

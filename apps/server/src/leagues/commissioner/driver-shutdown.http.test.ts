// A server whose commissioner is in the middle of a conversation stops at once: it does not wait
// out the reply it asked for (30 s by default). CI saw a replica take over a minute to close.
import { describe, expect, it } from "vitest";

import { commissionedLeague } from "../../../testing/commissioned-league.ts";
import { scriptedLauncher } from "../../../testing/scripted-commissioner.ts";
import { startTestServer } from "../../../testing/start-server.ts";
import { eventually } from "../../../testing/test-league.ts";

describe("a server stopping while its commissioner owes a reply", () => {
  it("closes within seconds, not after the reply timeout", async () => {
    const launcher = scriptedLauncher();
    launcher.mode = "silent";
    const t = await startTestServer({
      env: {
        GAUNTLET_SCHEDULER_TICK_MS: "30",
        GAUNTLET_COMMISSIONER_SCHEDULE_MS: "50",
        GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "30000",
      },
      commissionerLauncher: launcher,
    });
    let closed = false;
    try {
      await commissionedLeague(t);
      await eventually("a session waiting on the commissioner", () =>
        Promise.resolve(launcher.opened.length > 0 ? true : null),
      );
      const started = Date.now();
      await t.close();
      closed = true;
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      if (!closed) await t.close();
    }
  }, 60_000);
});

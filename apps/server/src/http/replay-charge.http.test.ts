// A replay (`since_seq`) draws on the caller's shared budget as the feed read it stands in for
// (http/replay-charge.ts): before, a socket replayed up to 10,000 events for the upgrade's one
// point, and an anonymous client reconnecting with `since_seq: 0` in a loop kept the server
// reading and writing the log (an attack held /healthz at 1.8 s median that way).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../testing/test-league.ts";
import { openSocket, type TestSocket } from "../../testing/test-socket.ts";
import { withEvents } from "../events/record.ts";
import { replayComplexity } from "./replay-charge.ts";

/** Replay pages (of 50 events, live-connection.ts) an anonymous address may draw at once: three. */
const PAGE = 50;
const PAGES_THAT_FIT = 3;

let t: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER: "off",
      // The upgrade (1 point) and three pages fit in a minute's burst; a fourth page does not.
      GAUNTLET_ANONYMOUS_CAPACITIES: JSON.stringify({
        complexityPerMinute: 1 + PAGES_THAT_FIT * replayComplexity(PAGE) + 2,
      }),
    },
  });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe("a replay on the caller's budget", () => {
  it("replays what the budget pays for, then says why it stopped and goes on live", async () => {
    const tl = await createTestLeague(t);
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");
    const refs = {
      league: { id: tl.league.id, name: tl.league.name },
      division: { id: division.id, name: division.name },
    };
    const { db, bus, hub } = t.server.leaguePlay;
    const before = hub.lastSeq;
    await withEvents(db, bus, async (_trx, emit) => {
      for (let i = 0; i < 500; i += 1)
        emit({ type: "division_quiet", refs, headline: `event ${i}`, summary: "replayed" });
    });
    // The log as a resuming client finds it: events the hub has already handed on, not live ones.
    await eventually("the hub has the events", async () => hub.lastSeq >= before + 500);
    const s = openSocket(t.url);
    sockets.push(s);
    await s.subscribe([`division:${division.id}`], 0);
    expect(s.events()).toHaveLength(PAGES_THAT_FIT * PAGE);
    const stopped = await s.next((m) => m.type === "error");
    expect(stopped.message).toMatch(
      /^replay stopped: the shared budget is spent; .* Resume with since_seq \d+/,
    );
    // Live events still arrive: only the replay was refused.
    await withEvents(db, bus, async (_trx, emit) => {
      emit({ type: "division_quiet", refs, headline: "live", summary: "after the replay" });
    });
    await s.next((m) => (m.data as { headline?: string } | undefined)?.headline === "live");
    // A signed-in caller replays on its own budget, not the address's.
    const user = await t.newUser();
    const mine = openSocket(t.url, user.token);
    sockets.push(mine);
    await mine.subscribe([`division:${division.id}`], 0);
    expect(mine.events().length).toBeGreaterThanOrEqual(501);
    expect(mine.messages.some((m) => m.type === "error")).toBe(false);
  });
});

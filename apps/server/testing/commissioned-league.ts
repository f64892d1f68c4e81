// A league run by a coworld's own commissioner (the test server's launcher decides which), with
// three players entered while its rounds are paused, and a way to play it until a round ends.
import type { RoundDetail, RoundPage } from "@gauntlet/core";

import { client } from "./http.ts";
import type { TestServer } from "./start-server.ts";
import {
  byStrength,
  createTestLeague,
  eventually,
  type ScriptedRunner,
  type TestLeague,
} from "./test-league.ts";

const STRENGTH = byStrength({ Ada: 3, Bo: 2, Cy: 1 });

/** A test server's settings for a commissioned league that plays fast: short ticks and waits. */
export const FAST_COMMISSIONER_ENV = {
  GAUNTLET_SCHEDULER_TICK_MS: "30",
  GAUNTLET_COMMISSIONER_SCHEDULE_MS: "50",
  GAUNTLET_COMMISSIONER_POLL_MS: "25",
  GAUNTLET_COMMISSIONER_LIFETIME_MS: "4000",
  GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "2000",
} as const;

/** A league whose coworld ships the commissioner `reverse`, selected, with Ada, Bo and Cy. */
export async function commissionedLeague(t: TestServer): Promise<TestLeague> {
  const tl = await createTestLeague(t, {
    manifest: {
      commissioner: [
        { type: "commissioner", id: "reverse", name: "Reverse", image: "reverse:latest" },
      ],
    },
    commissionerConfig: { commissioner_runnable_id: "reverse" },
  });
  const api = client(t.url, tl.commissioner.token);
  await api.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: true });
  for (const name of ["Ada", "Bo", "Cy"]) await tl.submit(await tl.addPlayer(name));
  await api.post(`/v2/leagues/${tl.league.id}/rounds-paused`, { paused: false });
  return tl;
}

async function rounds(t: TestServer, tl: TestLeague): Promise<RoundPage["entries"]> {
  return (await client(t.url).get<RoundPage>(`/v2/rounds?league_id=${tl.league.id}&limit=100`)).body
    .entries;
}

/** Plays whatever is queued until a round of the league reaches `status` (and matches `where`). */
export async function untilRound(
  t: TestServer,
  runner: ScriptedRunner,
  tl: TestLeague,
  status: "completed" | "failed",
  where: (r: RoundDetail) => boolean = () => true,
): Promise<RoundDetail> {
  return eventually(`a ${status} round`, async () => {
    await runner.runQueued(STRENGTH);
    for (const r of await rounds(t, tl)) {
      if (r.status !== status) continue;
      const detail = (await client(t.url).get<RoundDetail>(`/v2/rounds/${r.id}`)).body;
      if (where(detail)) return detail;
    }
    return null;
  });
}

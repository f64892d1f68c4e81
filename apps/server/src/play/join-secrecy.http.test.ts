// A play session's id tells a caller who may not join it nothing: an anonymous (or unrelated)
// join on a solo session, a full hosted game or an ended one answers exactly as an id that does
// not exist — the join, the join page and a solo session's lobby alike — while the people seated
// in it still hear why (409).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { HostedGameCreateResponse, PlaySession } from "@gauntlet/core";

import { uploadGridrushPlayModule } from "../../testing/hosted-play.ts";
import { client, http } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;
const MISSING = "ps_00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  tl = await createTestLeague(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** What a caller learns from a join: the status and body, with the id taken out. */
async function joinAnswer(id: string, token?: string) {
  const res = await client(t.url, token).post(`/v2/coworlds/play/session/${id}/join`);
  return { status: res.status, body: res.text.replaceAll(id, "ID") };
}

describe("joining a play session one may not join", () => {
  it("a solo session, a full game and an ended one answer as a missing session", async () => {
    const host = client(t.url, tl.commissioner.token);
    const stranger = await t.newUser();
    const greedy = await tl.addPlayer("Greedy", { baseline: "greedy" });
    expect((await uploadGridrushPlayModule(t.url, tl, "player_client")).status).toBe(201);
    const solo = await host.post<PlaySession>("/v2/play-sessions", {
      coworld_id: tl.coworldId,
      opponents: [greedy.policyVersionId],
      variant_id: "duel-small",
    });
    expect(solo.status, solo.text).toBe(201);
    const missing = await joinAnswer(MISSING);
    expect(missing.status).toBe(404);
    expect(await joinAnswer(solo.body.id)).toEqual(missing);
    expect(await joinAnswer(solo.body.id, stranger.token)).toEqual(missing);

    const hosted = await host.post<HostedGameCreateResponse>("/v2/coworlds/play/session", {
      coworld_id: tl.coworldId,
    });
    const id = hosted.body.session_id;
    const seated = await t.newUser();
    expect((await joinAnswer(id, seated.token)).status).toBe(200);
    expect((await joinAnswer(id)).status).toBe(200);
    // Full now: a stranger learns nothing, a seated person hears why.
    expect(await joinAnswer(id)).toEqual(missing);
    expect(await joinAnswer(id, stranger.token)).toEqual(missing);
    expect((await joinAnswer(id, tl.commissioner.token)).body).toContain("session_full");

    // The pages that join as nobody in particular, and a solo session's lobby.
    const page = (path: string) => http("GET", `${t.url}${path}`).then((r) => r.status);
    expect(await page(`/v2/coworlds/play/session/${solo.body.id}/play`)).toBe(404);
    expect(await page(`/v2/coworlds/play/session/${id}/play`)).toBe(404);
    expect(await page(`/v2/coworlds/play/session/${solo.body.id}/lobby`)).toBe(404);
    expect(await page(`/v2/coworlds/play/session/${id}/lobby`)).toBe(200);

    // Ended: the same for a stranger; the seated person hears it has ended.
    expect((await host.post(`/v2/coworlds/play/session/${id}/terminate`)).status).toBe(200);
    expect(await joinAnswer(id, stranger.token)).toEqual(missing);
    expect((await joinAnswer(id, seated.token)).body).toContain("session_ended");
  });
});

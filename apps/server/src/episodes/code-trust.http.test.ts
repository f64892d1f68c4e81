// Competitors' code goes only to runners that isolate it, over real HTTP: a runner that leases as
// `process` (started with --trusted-code) or does not say how it runs code gets the jobs whose
// every runnable an admin owns, never a job with an ordinary user's policy or coworld in it; a
// `sandbox` or `docker` runner gets those. (Before, a trusted-code runner leased anyone's jobs.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ExperienceRequestDetail, Isolation, LeasedJob } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
/** An admin's coworld and policies. */
let trusted: TestLeague;
/** An ordinary user's coworld and policies. */
let untrusted: TestLeague;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  trusted = await createTestLeague(t, { adminCommissioner: true });
  untrusted = await createTestLeague(t);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Queues one episode of `coworldId` between two policy versions; answers its episode id. */
async function queue(tl: TestLeague, seats: [string, string], token: string): Promise<string> {
  const xr = await client(t.url, token).post<ExperienceRequestDetail>("/v2/experience-requests", {
    coworld_id: tl.coworldId,
    // The league's members are seated in it (consent: access/seating.ts).
    target: { league_id: tl.league.id },
    roster: seats.map((policy_ref) => ({ player: { policy_ref } })),
    num_episodes: 1,
  });
  expect(xr.status, xr.text).toBe(201);
  const [episode] = xr.body.episodes;
  if (!episode) throw new Error("no episode queued");
  return episode.id;
}

/** What a runner declaring `isolation` (or nothing) leases, up to `capacity` jobs. */
async function leaseAs(isolation: Isolation | undefined, capacity = 8): Promise<LeasedJob[]> {
  const name = `trust-${isolation ?? "unsaid"}`;
  const res = await client(t.url, await t.machineToken(name)).post<{ jobs: LeasedJob[] }>(
    "/v2/runner/jobs/lease",
    {
      runner_id: name,
      capacity,
      runtimes: ["process"],
      ...(isolation === undefined ? {} : { isolation }),
    },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.jobs;
}

const episodesOf = (jobs: LeasedJob[]) => jobs.map((j) => j.episode_request_id).sort();

async function shown(episodeId: string) {
  const res = await client(t.url, t.adminToken).get<{ status: string; isolation: string | null }>(
    `/v2/episode-requests/${episodeId}`,
  );
  expect(res.status, res.text).toBe(200);
  return { status: res.body.status, isolation: res.body.isolation };
}

describe("who runs competitors' code", () => {
  it("leases an ordinary user's code only to a sandbox or docker runner; admins' code to any", async () => {
    const admin = trusted.commissioner.token;
    const user = untrusted.commissioner.token;
    const adminA = (await trusted.addPlayer("Admin A")).policyVersionId;
    const adminB = (await trusted.addPlayer("Admin B")).policyVersionId;
    const userA = (await untrusted.addPlayer("User A")).policyVersionId;
    const userB = (await untrusted.addPlayer("User B")).policyVersionId;
    // The user's policy on the admin's coworld: one untrusted seat is enough.
    const userOnAdmin = (await trusted.addPlayer("User on admin's", { owner: { token: user } }))
      .policyVersionId;

    // Its owner lets others seat it (consent: access/seating.ts).
    const opened = await client(t.url, user).patch(`/v2/policy-versions/${userOnAdmin}`, {
      open_to_scrimmage: true,
    });
    expect(opened.status, opened.text).toBe(200);
    const allAdmin = await queue(trusted, [adminA, adminB], admin);
    const userGame = await queue(untrusted, [userA, userB], user);
    const oneUserSeat = await queue(trusted, [adminA, userOnAdmin], admin);

    // A runner that does not say how it runs code, then a trusted-code one: admins' job only.
    expect(episodesOf(await leaseAs(undefined))).toEqual([allAdmin]);
    const again = await queue(trusted, [adminB, adminA], admin);
    expect(episodesOf(await leaseAs("process"))).toEqual([again]);
    expect(await shown(again)).toEqual({ status: "running", isolation: "process" });
    // Nothing else is leased as process; the users' episodes wait for an isolating runner.
    expect(await leaseAs("process")).toEqual([]);
    expect((await shown(userGame)).status).toBe("submitted");
    expect((await shown(oneUserSeat)).status).toBe("submitted");

    expect(episodesOf(await leaseAs("sandbox", 1))).toEqual([userGame]);
    expect(episodesOf(await leaseAs("docker"))).toEqual([oneUserSeat]);
    expect(await shown(userGame)).toEqual({ status: "running", isolation: "sandbox" });
    expect(await shown(oneUserSeat)).toEqual({ status: "running", isolation: "docker" });
  });
});

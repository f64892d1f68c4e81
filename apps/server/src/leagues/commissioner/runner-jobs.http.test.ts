// Who may run a coworld's commissioner and reach its session: a commissioner job is leased by a
// runner (a machine token), its relay opens only with the relay token that lease was given, once,
// and only the lease's holder reports its end; the coworld's files go to that runner alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { LEASE_TOKEN_HEADER, type CommissionerJob } from "@gauntlet/core";

import {
  commissionerBundle,
  FIXTURE_RUNNABLE_ID,
  fixtureCommissioner,
} from "../../../testing/commissioner-coworld.ts";
import { client } from "../../../testing/http.ts";
import { startTestServer, type TestServer } from "../../../testing/start-server.ts";
import { createTestLeague, eventually } from "../../../testing/test-league.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      GAUNTLET_SCHEDULER_TICK_MS: "50",
      GAUNTLET_COMMISSIONER_SCHEDULE_MS: "100",
      GAUNTLET_COMMISSIONER_STARTUP_MS: "20000",
      // The test answers no message: the session it holds ends soon after.
      GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS: "2000",
    },
  });
});
afterAll(async () => {
  await t?.close();
});

/** The code the server closes a WebSocket to `url` with (it upgrades first, then judges). */
function closeCode(url: string): Promise<number> {
  const socket = new WebSocket(url);
  return new Promise((resolve) =>
    socket.addEventListener("close", (e) => resolve(e.code), { once: true }),
  );
}

describe("commissioner jobs", () => {
  it("go to a runner, whose relay token alone opens the session, once, and whose lease alone reports", async () => {
    const tl = await createTestLeague(t, {
      bundle: await commissionerBundle(),
      manifest: { commissioner: fixtureCommissioner(1, {}) },
      commissionerConfig: { commissioner_runnable_id: FIXTURE_RUNNABLE_ID },
    });
    const runner = client(t.url, await t.machineToken("commissioner-http"));
    const other = client(t.url, await t.machineToken("commissioner-other"));

    // A person's token leases nothing.
    const byPerson = await client(t.url, tl.commissioner.token).post(
      "/v2/runner/commissioner-jobs/lease",
      { runner_id: "me", runtimes: ["process"] },
    );
    expect(byPerson.status).toBe(403);

    // A competitor's commissioner is code to isolate: once its job waits, a runner that does not
    // say it isolates what it runs (or says `process`) is given none.
    await eventually("a queued commissioner job", async () =>
      t.server.store.db
        .selectFrom("commissioner_jobs")
        .select("id")
        .where("league_id", "=", tl.league.id)
        .where("status", "=", "queued")
        .executeTakeFirst(),
    );
    for (const isolation of [undefined, "process"])
      expect(
        (
          await runner.post<{ job: CommissionerJob | null }>("/v2/runner/commissioner-jobs/lease", {
            runner_id: "r0",
            runtimes: ["process"],
            ...(isolation ? { isolation } : {}),
          })
        ).body.job,
        `a runner leasing with isolation ${String(isolation)}`,
      ).toBeNull();

    const job = await eventually("a commissioner job", async () => {
      const res = await runner.post<{ job: CommissionerJob | null }>(
        "/v2/runner/commissioner-jobs/lease",
        { runner_id: "r1", runtimes: ["process"], isolation: "sandbox" },
      );
      expect(res.status, res.text).toBe(200);
      return res.body.job;
    });
    expect(job.league_id).toBe(tl.league.id);
    expect(job.runnable.run).toEqual(["node", "commissioner/fixture.ts"]);
    expect(job.runnable.env.FIXTURE_ROUNDS).toBe("1");

    // The coworld's files: for the runner holding the lease only.
    const sha = job.coworld.bundle_sha256 ?? "";
    expect((await runner.get(`/v2/runner/blobs/${sha}`)).status).toBe(200);
    expect((await other.get(`/v2/runner/blobs/${sha}`)).status).toBe(404);

    // The relay: a wrong token, or none, opens nothing; the lease's opens it once.
    const relay = new URL(job.relay_url);
    const token = relay.searchParams.get("token") ?? "";
    relay.searchParams.set("token", `${token}x`);
    expect(await closeCode(relay.href)).toBe(4401);
    relay.searchParams.delete("token");
    expect(await closeCode(relay.href)).toBe(4401);
    // The lease's token opens the session: the driver's first message arrives (a migration).
    const first = new WebSocket(job.relay_url);
    const heard = await new Promise<string>((resolve, reject) => {
      first.addEventListener("message", (e) => resolve(String(e.data)), { once: true });
      first.addEventListener("close", (e) => reject(new Error(`closed ${e.code}`)), { once: true });
    });
    expect(JSON.parse(heard)).toMatchObject({ type: "league_migration_config_request" });
    // Once: a second socket with the same token is refused.
    expect(await closeCode(job.relay_url)).toBe(4410);

    // Only the lease's holder reports, with the lease's secret; a repeat is a no-op.
    const end = `/v2/runner/commissioner-jobs/${job.job_id}/end`;
    const report = { runner_id: "r1", outcome: "ended", error: "", log: "fixture said bye" };
    expect((await runner.post(end, report)).status).toBe(403);
    expect(
      (await other.post(end, report, { headers: { [LEASE_TOKEN_HEADER]: job.lease_token } }))
        .status,
    ).toBe(403);
    const ok = await runner.post(end, report, {
      headers: { [LEASE_TOKEN_HEADER]: job.lease_token },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(
      (await runner.post(end, report, { headers: { [LEASE_TOKEN_HEADER]: job.lease_token } }))
        .status,
    ).toBe(200);
    first.close();
    const row = await t.server.store.db
      .selectFrom("commissioner_jobs")
      .select(["log", "relay_token_hash", "lease_token_hash"])
      .where("id", "=", job.job_id)
      .executeTakeFirstOrThrow();
    expect(row.log).toBe("fixture said bye");
    // Secrets are kept as hashes only.
    expect(row.relay_token_hash).not.toContain(token);
    expect(row.lease_token_hash).not.toBe(job.lease_token);
  });
});

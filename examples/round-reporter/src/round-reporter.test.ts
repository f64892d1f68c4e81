// The example against a real server: a round of a division settles, the reporter (following
// the division's live events through the SDK) publishes its HTML summary as a reporter run,
// and the summary reads back by run with the same bytes.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { ReporterRunOutput, Round } from "@gauntlet/core";
import { createClient } from "@gauntlet/sdk";
import {
  byStrength,
  client,
  createTestLeague,
  eventually,
  scriptedRunner,
  startTestServer,
  type TestServer,
} from "@gauntlet/server/testing";

import { startRoundReporter } from "./round-reporter.ts";
import { roundSummaryHtml } from "./summary-html.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("round reporter", () => {
  it("publishes an HTML summary of each settled round, read back by run", async () => {
    const tl = await createTestLeague(t);
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));

    const owner = await t.newUser();
    const sdk = createClient({
      env: {},
      useSavedCredentials: false,
      baseUrl: t.url,
      token: owner.token,
    });
    const registered = await sdk.reporters.register({
      body: { name: "Round Recap", type: "round-summary", mode: "live" },
    });
    const published: ReporterRunOutput[] = [];
    const errors: unknown[] = [];
    const { last_seq } = await sdk.events.info();
    const reporter = startRoundReporter({
      client: sdk,
      reporterId: registered.id,
      reporterKey: registered.reporter_key ?? "",
      divisionId: division.id,
      sinceSeq: last_seq,
      onPublished: (output) => published.push(output),
      onError: (error) => errors.push(error),
    });
    try {
      const triggered = await client(t.url, tl.commissioner.token).post<{ rounds: Round[] }>(
        `/v2/leagues/${tl.league.id}/trigger-round`,
        {},
      );
      expect(triggered.status, triggered.text).toBe(200);
      const roundId = triggered.body.rounds[0]?.id;
      if (!roundId) throw new Error("no round started");
      const runner = await scriptedRunner(t);
      await eventually("the round settles", async () => {
        await runner.runQueued(byStrength({ Ada: 3, Bo: 1 }));
        return (await sdk.rounds.get({ round_id: roundId })).status === "completed";
      });
      const output = await eventually("the summary is published", async () => published[0]);
      expect(errors).toEqual([]);

      // The run's outputs, every field of Reporter run output.
      const outputs = await createClient({
        env: {},
        useSavedCredentials: false,
        baseUrl: t.url,
        token: null,
      }).reporterRuns.output({ reporter_run_id: output.reporter_run_id });
      expect(outputs).toEqual([output]);
      expect(output).toMatchObject({
        reporter_id: registered.id,
        name: "round-1.html",
        type: "html",
        media_type: "text/html; charset=utf-8",
      });
      const served = await fetch(output.url);
      expect(served.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = Buffer.from(await served.arrayBuffer());
      expect(html.byteLength).toBe(output.size_bytes);
      expect(createHash("sha256").update(html).digest("hex")).toBe(output.content_hash);
      const text = html.toString("utf8");
      expect(text).toContain(`${division.name}: round 1`);
      expect(text.indexOf("Ada")).toBeGreaterThan(-1);
      expect(text.indexOf("Ada")).toBeLessThan(text.indexOf("Bo<"));
      expect((await sdk.reporters.get({ reporter_id: registered.id })).run_count).toBe(1);
    } finally {
      reporter.close();
    }
  }, 180_000);

  it("escapes what players write about themselves", () => {
    const html = roundSummaryHtml({
      divisionName: "Top",
      headline: "Top: round 2 completed",
      summary: "2 episode(s) settled",
      round: {
        round_number: 2,
        status: "completed",
        completed_at: "2026-01-01T00:00:00Z",
      } as Parameters<typeof roundSummaryHtml>[0]["round"],
      standings: [
        {
          rank: 1,
          player_id: "ply_00000000-0000-4000-8000-000000000000",
          player_name: "<script>alert(1)</script>",
          score: 1516,
          score_label: "Elo",
          rounds_played: 2,
          recent_rounds: [],
          episodes_played: 4,
        },
      ],
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
  });
});

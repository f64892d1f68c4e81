// Reporters over real HTTP (SQLite, or PostgreSQL when DATABASE_URL is set): keys shown once
// and stored hashed, rotation, runs over each kind of subject, outputs posted with
// X-Reporter-Key into the blob store, a run's outputs to the letter, and the owner's budgets.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import {
  MAX_REPORTER_OUTPUT_BYTES,
  RATE_LIMIT_ERROR_TYPE,
  ReporterRunOutput as ReporterRunOutputSchema,
  type RegisteredReporter,
  type Reporter,
  type ReporterRun,
  type ReporterRunOutput,
  type RotatedReporterKey,
  type TriggerRoundResponse,
} from "@gauntlet/core";

import { client, http, type HttpResult } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";

let t: TestServer;
let tl: TestLeague;

beforeAll(async () => {
  t = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off", GAUNTLET_RATE_LIMIT_MODE: "off" },
  });
  tl = await createTestLeague(t);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function postOutput(
  key: string | undefined,
  query: Record<string, string>,
  text: string,
  server: TestServer = t,
): Promise<HttpResult<ReporterRunOutput>> {
  return http<ReporterRunOutput>(
    "POST",
    `${server.url}/v2/reporters/outputs?${new URLSearchParams(query).toString()}`,
    {
      body: text,
      headers: {
        "content-type": "application/octet-stream",
        ...(key === undefined ? {} : { "x-reporter-key": key }),
      },
    },
  );
}

async function postBytes(
  key: string,
  query: Record<string, string>,
  bytes: Uint8Array,
  server: TestServer = t,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(
    `${server.url}/v2/reporters/outputs?${new URLSearchParams(query).toString()}`,
    {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "x-reporter-key": key },
      body: bytes,
    },
  );
  return { status: res.status, body: await res.json() };
}

async function register(
  token: string,
  body: Record<string, unknown> = { name: "Round Recap" },
  server: TestServer = t,
): Promise<RegisteredReporter & { reporter_key: string }> {
  const res = await client(server.url, token).post<RegisteredReporter>(
    "/v2/reporters/register",
    body,
  );
  expect(res.status, res.text).toBe(201);
  const key = res.body.reporter_key;
  if (key === null) throw new Error(`registered an existing reporter: ${res.text}`);
  return { ...res.body, reporter_key: key };
}

async function openRun(
  token: string,
  reporterId: string,
  body: Record<string, unknown> = { subject_type: "text", subject_text: "week 1" },
  server: TestServer = t,
): Promise<ReporterRun> {
  const res = await client(server.url, token).post<ReporterRun>(
    `/v2/reporters/${reporterId}/runs`,
    body,
  );
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("registering and rotating keys", () => {
  it("shows the key once, stores only its SHA-256, never lists it, and a rotated key stops at once", async () => {
    const owner = await t.newUser();
    const created = await register(owner.token, {
      name: "Round Recap",
      description: "Summaries of settled rounds",
      type: "round-summary",
      mode: "live",
    });
    expect(created).toMatchObject({
      name: "Round Recap",
      user_id: owner.id,
      type: "round-summary",
      mode: "live",
      run_count: 0,
      output_count: 0,
      key_rotated_at: null,
    });
    expect(created.id).toMatch(/^rptr_[0-9a-f-]{36}$/);
    expect(created.reporter_key).toMatch(/^rptk_/);
    const stored = await t.server.store.db
      .selectFrom("reporters")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash).toBe(createHash("sha256").update(created.reporter_key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(created.reporter_key);

    const got = await client(t.url).get<Reporter>(`/v2/reporters/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.text).not.toContain("reporter_key");
    const listed = await client(t.url).get<Reporter[]>("/v2/reporters?limit=200");
    expect(listed.status).toBe(200);
    expect(listed.body.map((r) => r.id)).toContain(created.id);
    expect(listed.text).not.toContain("reporter_key");
    expect(listed.text).not.toContain(created.reporter_key);

    const run = await openRun(owner.token, created.id);
    expect(
      (
        await postOutput(
          created.reporter_key,
          { reporter_run_id: run.id, name: "a", type: "text" },
          "first",
        )
      ).status,
    ).toBe(201);
    const rotated = await client(t.url, owner.token).post<RotatedReporterKey>(
      `/v2/reporters/${created.id}/key/rotate`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.reporter_key).not.toBe(created.reporter_key);
    expect(rotated.body.key_rotated_at).not.toBeNull();
    const old = await postOutput(
      created.reporter_key,
      { reporter_run_id: run.id, name: "b", type: "text" },
      "second",
    );
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ detail: { type: "unauthorized" } });
    expect(
      (
        await postOutput(
          rotated.body.reporter_key,
          { reporter_run_id: run.id, name: "b", type: "text" },
          "second",
        )
      ).status,
    ).toBe(201);
    expect((await client(t.url).get<Reporter>(`/v2/reporters/${created.id}`)).body).toMatchObject({
      run_count: 1,
      output_count: 2,
    });
  });

  it("refuses a machine token (403), hides another user's reporter (404) and validates the body (422)", async () => {
    const owner = await t.newUser();
    const stranger = await t.newUser();
    const reporter = await register(owner.token);
    const machine = await client(t.url, await t.machineToken("reporters-test")).post(
      "/v2/reporters/register",
      { name: "bot" },
    );
    expect(machine.status).toBe(403);
    expect(machine.body).toMatchObject({ detail: { type: "forbidden" } });
    expect((await client(t.url).post("/v2/reporters/register", { name: "anon" })).status).toBe(401);
    const rotate = await client(t.url, stranger.token).post(
      `/v2/reporters/${reporter.id}/key/rotate`,
    );
    expect(rotate.status).toBe(404);
    expect(rotate.body).toMatchObject({ detail: { type: "not_found" } });
    expect(
      (
        await client(t.url, stranger.token).post(`/v2/reporters/${reporter.id}/runs`, {
          subject_type: "text",
          subject_text: "x",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await client(t.url, t.adminToken).post<RegisteredReporter>(
          `/v2/reporters/${reporter.id}/key/rotate`,
        )
      ).status,
    ).toBe(200);
    const bad = await client(t.url, owner.token).post<{ detail: { loc: unknown[] }[] }>(
      "/v2/reporters/register",
      { name: "", mode: "sometimes", extra: 1 },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d) => d.loc)).toEqual(
      expect.arrayContaining([
        ["body", "name"],
        ["body", "mode"],
      ]),
    );
    expect(
      (await client(t.url).get("/v2/reporters/rptr_00000000-0000-4000-8000-000000000000")).status,
    ).toBe(404);
    const badId = await client(t.url).get<{ detail: { loc: unknown[] }[] }>("/v2/reporters/nope");
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0]?.loc).toEqual(["path", "reporter_id"]);
  });

  it("registers as an upsert by name: display_name and outputs, created true then false, the key kept", async () => {
    const owner = await t.newUser();
    const outputs = [{ name: "recap", type: "render-html", description: "The recap" }];
    const first = await client(t.url, owner.token).post<RegisteredReporter>(
      "/v2/reporters/register",
      { name: "arena-recap", display_name: "Recap", description: "Rounds", outputs },
    );
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      name: "arena-recap",
      display_name: "Recap",
      description: "Rounds",
      type: "general",
      mode: "manual",
      outputs,
      created: true,
    });
    expect(first.body.reporter_key).toMatch(/^rptk_/);
    const newer = [{ name: "recap", type: "markdown", description: "The recap", optional: true }];
    const second = await client(t.url, owner.token).post<RegisteredReporter>(
      "/v2/reporters/register",
      { name: "arena-recap", display_name: "Round Recap", outputs: newer },
    );
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      id: first.body.id,
      display_name: "Round Recap",
      description: "Rounds",
      outputs: newer,
      created: false,
      reporter_key: null,
    });
    // The key of the first registration still posts.
    const run = await openRun(owner.token, first.body.id);
    expect(
      (
        await postOutput(
          first.body.reporter_key ?? "",
          { reporter_run_id: run.id, name: "a", type: "text" },
          "still mine",
        )
      ).status,
    ).toBe(201);
    const shown = await client(t.url).get<Reporter>(`/v2/reporters/${first.body.id}`);
    expect(shown.body).toMatchObject({ display_name: "Round Recap", outputs: newer });
    const undeclared = await client(t.url, owner.token).post<{ detail: { loc: string[] }[] }>(
      "/v2/reporters/register",
      { name: "arena-recap", outputs: [{ name: "recap" }] },
    );
    expect(undeclared.status).toBe(422);
    expect(undeclared.body.detail[0]?.loc).toEqual(["body", "outputs", 0, "type"]);
    // Another user's reporter of the same name is their own.
    const rival = await t.newUser();
    const theirs = await register(rival.token, { name: "arena-recap" });
    expect(theirs.id).not.toBe(first.body.id);
    expect(theirs.created).toBe(true);
  });

  it("lists by words, type, mode and author", async () => {
    const ada = await t.newUser();
    const bob = await t.newUser();
    const a = await register(ada.token, {
      name: "Zebra Weekly",
      description: "stripes 100%",
      type: "weekly",
      mode: "manual",
    });
    const b = await register(bob.token, { name: "Zebra Live", type: "live-ticker", mode: "live" });
    const ids = async (query: string) =>
      (await client(t.url).get<Reporter[]>(`/v2/reporters?${query}`)).body.map((r) => r.id);
    expect(await ids("q=zebra")).toEqual([b.id, a.id]);
    expect(await ids("q=zebra%20weekly")).toEqual([a.id]);
    expect(await ids("q=100%25")).toEqual([a.id]);
    expect(await ids("q=zebra&mode=live")).toEqual([b.id]);
    expect(await ids("type=weekly")).toContain(a.id);
    expect(await ids("type=weekly")).not.toContain(b.id);
    expect(await ids(`author=${bob.id}`)).toEqual([b.id]);
    expect(await ids(`author=${encodeURIComponent(ada.email.toUpperCase())}`)).toEqual([a.id]);
    expect(await ids("q=zebra&limit=1")).toEqual([b.id]);
    // As the hosted service's client asks: mode=all, the type key repeated, an offset.
    expect(await ids("q=zebra&mode=all&type=weekly&type=live-ticker&limit=200&offset=0")).toEqual([
      b.id,
      a.id,
    ]);
    expect(await ids("q=zebra&limit=1&offset=1")).toEqual([a.id]);
    const [shown] = (await client(t.url).get<Reporter[]>(`/v2/reporters?author=${bob.id}`)).body;
    expect(shown).toMatchObject({
      name: "Zebra Live",
      display_name: "Zebra Live",
      description: "",
      created_at: shown?.created,
    });
    expect((await client(t.url).get("/v2/reporters?mode=sometimes")).status).toBe(422);
    expect((await client(t.url).get("/v2/reporters?limit=0")).status).toBe(422);
  });
});

describe("reporter runs", () => {
  it("opens runs over an episode, a round, a division or free text, and 404s a subject the owner cannot see", async () => {
    await tl.submit(await tl.addPlayer("Ada"));
    await tl.submit(await tl.addPlayer("Bo"));
    const triggered = await client(t.url, tl.commissioner.token).post<TriggerRoundResponse>(
      `/v2/leagues/${tl.league.id}/trigger-round`,
      {},
    );
    expect(triggered.status, triggered.text).toBe(200);
    const round = triggered.body.rounds[0];
    if (!round) throw new Error("no round started");
    const episode = await t.server.store.db
      .selectFrom("episode_requests")
      .select("id")
      .where("round_id", "=", round.id)
      .executeTakeFirstOrThrow();
    const division = tl.divisions[0];
    if (!division) throw new Error("no division");

    const owner = await t.newUser();
    const reporter = await register(owner.token);
    for (const [subject_type, subject_id] of [
      ["episode", episode.id],
      ["round", round.id],
      ["division", division.id],
    ] as const) {
      const run = await openRun(owner.token, reporter.id, { subject_type, subject_id });
      expect(run).toMatchObject({
        reporter_id: reporter.id,
        user_id: owner.id,
        subject_type,
        subject_id,
        subject_text: null,
      });
      expect(run.id).toMatch(/^rrun_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const text = await openRun(owner.token, reporter.id, {
      subject_type: "text",
      subject_text: "Season preview",
    });
    expect(text).toMatchObject({
      subject_type: "text",
      subject_id: null,
      subject_text: "Season preview",
    });
    // A retried open with the same Idempotency-Key is the same run.
    const once = { headers: { "idempotency-key": "preview-1" } };
    const first = await client(t.url, owner.token).post<ReporterRun>(
      `/v2/reporters/${reporter.id}/runs`,
      { subject_type: "text", subject_text: "Retry" },
      once,
    );
    const again = await client(t.url, owner.token).post<ReporterRun>(
      `/v2/reporters/${reporter.id}/runs`,
      { subject_type: "text", subject_text: "Retry" },
      once,
    );
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);

    const unknown = await client(t.url, owner.token).post(`/v2/reporters/${reporter.id}/runs`, {
      subject_type: "round",
      subject_id: "round_00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);
    const missing = await client(t.url, owner.token).post<{ detail: { loc: unknown[] }[] }>(
      `/v2/reporters/${reporter.id}/runs`,
      { subject_type: "episode" },
    );
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]?.loc).toEqual(["body", "subject_id"]);
    const noText = await client(t.url, owner.token).post<{ detail: { loc: unknown[] }[] }>(
      `/v2/reporters/${reporter.id}/runs`,
      { subject_type: "text" },
    );
    expect(noText.status).toBe(422);
    expect(noText.body.detail[0]?.loc).toEqual(["body", "subject_text"]);

    // A private league's division is not a subject for someone outside it.
    const hidden = await createTestLeague(t, { public: false });
    const hiddenDivision = hidden.divisions[0];
    if (!hiddenDivision) throw new Error("no division");
    expect(
      (
        await client(t.url, owner.token).post(`/v2/reporters/${reporter.id}/runs`, {
          subject_type: "division",
          subject_id: hiddenDivision.id,
        })
      ).status,
    ).toBe(404);
  }, 120_000);
});

describe("a run's outputs", () => {
  it("stores the bytes by content hash and returns every field of Reporter run output; url serves the same bytes", async () => {
    const owner = await t.newUser();
    const reporter = await register(owner.token);
    const run = await openRun(owner.token, reporter.id);
    const html = "<h1>Round 1</h1><p>Ada won.</p><script>alert(1)</script>";
    const posted = await postOutput(
      reporter.reporter_key,
      { reporter_run_id: run.id, name: "summary.html", type: "html" },
      html,
    );
    expect(posted.status, posted.text).toBe(201);
    const sha = createHash("sha256").update(html).digest("hex");
    expect(posted.body).toMatchObject({
      reporter_id: reporter.id,
      reporter_run_id: run.id,
      name: "summary.html",
      type: "html",
      size_bytes: Buffer.byteLength(html),
      content_hash: sha,
      media_type: "text/html; charset=utf-8",
    });
    expect(await t.server.context.blobs.has(sha)).toBe(true);
    const binary = new Uint8Array([0, 255, 1, 254, 10, 13]);
    const second = await postBytes(
      reporter.reporter_key,
      { reporter_run_id: run.id, name: "data.bin", type: "blob" },
      binary,
    );
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      media_type: "application/octet-stream",
      size_bytes: 6,
      content_hash: createHash("sha256").update(binary).digest("hex"),
    });
    const third = await postOutput(
      reporter.reporter_key,
      { reporter_run_id: run.id, name: "table.csv", type: "csv", media_type: "text/csv" },
      "a,b\n1,2\n",
    );
    expect(third.body.media_type).toBe("text/csv");

    const spec = await client(t.url).get<ReporterRunOutput[]>(
      `/v2/reporters/runs/${run.id}/output`,
    );
    expect(spec.status).toBe(200);
    expect(spec.body.map((o) => o.name)).toEqual(["summary.html", "data.bin", "table.csv"]);
    for (const output of spec.body) {
      expect(Object.keys(output).sort()).toEqual([
        "content_hash",
        "created_at",
        "id",
        "media_type",
        "name",
        "reporter_id",
        "reporter_run_id",
        "size_bytes",
        "type",
        "url",
      ]);
      expect(ReporterRunOutputSchema.safeParse(output).success).toBe(true);
      const served = await fetch(output.url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(output.media_type);
      expect(served.headers.get("content-security-policy")).toBe("sandbox");
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.byteLength).toBe(output.size_bytes);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(output.content_hash);
    }

    const byReporter = await client(t.url).get<ReporterRunOutput[]>(
      `/v2/reporters/${reporter.id}/outputs`,
    );
    expect(byReporter.status).toBe(200);
    expect(byReporter.body.map((o) => o.name)).toEqual(["table.csv", "data.bin", "summary.html"]);
    expect(
      (await client(t.url).get(`/v2/reporters/rptr_00000000-0000-4000-8000-000000000000/outputs`))
        .status,
    ).toBe(404);
    expect(
      (await client(t.url).get(`/v2/reporters/outputs/rout_00000000-0000-4000-8000-000000000000`))
        .status,
    ).toBe(404);
  });

  it("takes an output posted with its own media type (text/html, JSON) and serves it with that type", async () => {
    const owner = await t.newUser();
    const reporter = await register(owner.token);
    const run = await openRun(owner.token, reporter.id);
    const post = (query: Record<string, string>, contentType: string, body: string) =>
      http<ReporterRunOutput>(
        "POST",
        `${t.url}/v2/reporters/outputs?${new URLSearchParams({ reporter_run_id: run.id, ...query }).toString()}`,
        { body, headers: { "content-type": contentType, "x-reporter-key": reporter.reporter_key } },
      );
    const html = await post({ name: "r.html", type: "report" }, "text/html", "<p>hi</p>");
    expect(html.status, html.text).toBe(201);
    expect(html.body.media_type).toBe("text/html");
    expect(html.body.size_bytes).toBe(9);
    // A JSON body is kept byte for byte, not parsed and re-serialised.
    const json = await post({ name: "r.json", type: "json" }, "application/json", '{ "a" : 1 }');
    expect(json.status, json.text).toBe(201);
    expect(json.body).toMatchObject({ media_type: "application/json", size_bytes: 11 });
    const served = await fetch(json.body.url);
    expect(await served.text()).toBe('{ "a" : 1 }');
    // media_type in the query wins; a malformed Content-Type falls back to what `type` implies.
    const named = await post(
      { name: "n.txt", type: "text", media_type: "text/csv" },
      "text/plain",
      "a,b",
    );
    expect(named.body.media_type).toBe("text/csv");
    // Other operations still refuse a media type they do not take.
    const elsewhere = await http("POST", `${t.url}/v2/reporters/register`, {
      token: owner.token,
      body: "<p>hi</p>",
      headers: { "content-type": "text/html" },
    });
    expect(elsewhere.status).toBe(415);
  });

  it("answers its errors: a bad reporter_run_id is 422 at path.reporter_run_id, an unknown run 404, an empty run []", async () => {
    for (const bad of [
      "rrun_123",
      "run_00000000-0000-4000-8000-000000000000",
      "rrun_00000000-0000-4000-8000-00000000000G",
    ]) {
      const res = await client(t.url).get<{
        detail: { loc: unknown[]; msg: string; type: string }[];
      }>(`/v2/reporters/runs/${bad}/output`);
      expect(res.status).toBe(422);
      expect(res.body.detail).toHaveLength(1);
      expect(res.body.detail[0]).toMatchObject({
        loc: ["path", "reporter_run_id"],
        msg: expect.any(String),
        type: expect.any(String),
      });
    }
    const unknown = await client(t.url).get(
      "/v2/reporters/runs/rrun_00000000-0000-4000-8000-000000000000/output",
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      detail: { type: "not_found", message: expect.any(String) },
    });
    const owner = await t.newUser();
    const reporter = await register(owner.token);
    const run = await openRun(owner.token, reporter.id);
    const empty = await client(t.url).get<ReporterRunOutput[]>(
      `/v2/reporters/runs/${run.id}/output`,
    );
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });

  it("refuses a missing or wrong key (401), another reporter's run (404), bad query (422) and a body over the limit (413)", async () => {
    const owner = await t.newUser();
    const reporter = await register(owner.token);
    const other = await register(owner.token, { name: "Other" });
    const run = await openRun(owner.token, reporter.id);
    const query = { reporter_run_id: run.id, name: "x", type: "text" };
    for (const key of [undefined, "", "rptk_wrong", other.reporter_key.slice(0, -1)]) {
      const res = await postOutput(key, query, "hello");
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        detail: { type: "unauthorized", message: expect.any(String) },
      });
    }
    // A bearer token is not a reporter key, not even the owner's.
    const bearer = await http(
      "POST",
      `${t.url}/v2/reporters/outputs?${new URLSearchParams(query).toString()}`,
      {
        token: owner.token,
        body: "hello",
        headers: { "content-type": "application/octet-stream" },
      },
    );
    expect(bearer.status).toBe(401);
    const foreign = await postOutput(other.reporter_key, query, "hello");
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ detail: { type: "not_found" } });
    const unknownRun = await postOutput(
      reporter.reporter_key,
      { ...query, reporter_run_id: "rrun_00000000-0000-4000-8000-000000000000" },
      "hello",
    );
    expect(unknownRun.status).toBe(404);
    const bad = await postOutput(
      reporter.reporter_key,
      { reporter_run_id: "rrun_1", type: "text", name: "x", media_type: "not a type" },
      "hello",
    );
    expect(bad.status).toBe(422);
    expect(
      (bad.body as unknown as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc),
    ).toEqual(
      expect.arrayContaining([
        ["query", "reporter_run_id"],
        ["query", "media_type"],
      ]),
    );
    const noName = await postOutput(
      reporter.reporter_key,
      { reporter_run_id: run.id, type: "text" },
      "hello",
    );
    expect(noName.status).toBe(422);

    const tooBig = await postBytes(
      reporter.reporter_key,
      query,
      new Uint8Array(MAX_REPORTER_OUTPUT_BYTES + 1),
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({
      detail: { type: "payload_too_large", message: expect.any(String) },
    });
    const atLimit = await postBytes(
      reporter.reporter_key,
      query,
      new Uint8Array(MAX_REPORTER_OUTPUT_BYTES),
    );
    expect(atLimit.status).toBe(201);
    expect(
      (
        await client(t.url).get<ReporterRunOutput[]>(`/v2/reporters/runs/${run.id}/output`)
      ).body.map((o) => o.size_bytes),
    ).toEqual([MAX_REPORTER_OUTPUT_BYTES]);
  });
});

describe("budgets", () => {
  it("a reporter's posts draw on its owner's user budget", async () => {
    // An hour bucket of 25 complexity refills one credit per 144 s: nothing comes back during the test.
    const small = await startTestServer({
      env: {
        GAUNTLET_SCHEDULER: "off",
        GAUNTLET_USER_CAPACITIES: JSON.stringify({ complexityPerHour: 25, requestsPerHour: 360 }),
      },
    });
    try {
      const owner = await small.newUser();
      const bystander = await small.newUser();
      const reporter = await register(owner.token, { name: "Budgeted" }, small);
      const run = await openRun(
        owner.token,
        reporter.id,
        { subject_type: "text", subject_text: "budget" },
        small,
      );
      // The owner has spent 20 of 25: the reporter's post (complexity 10) does not fit.
      const refused = await postOutput(
        reporter.reporter_key,
        { reporter_run_id: run.id, name: "x", type: "text" },
        "hello",
        small,
      );
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ detail: { type: RATE_LIMIT_ERROR_TYPE } });
      expect(
        Number(refused.headers.get("x-ratelimit-complexity-hour-remaining")),
      ).toBeLessThanOrEqual(5);
      expect(
        (await client(small.url).get<ReporterRunOutput[]>(`/v2/reporters/runs/${run.id}/output`))
          .body,
      ).toEqual([]);
      // A fresh user's budget is untouched by it.
      const other = await client(small.url, bystander.token).get(`/v2/reporters/${reporter.id}`);
      expect(Number(other.headers.get("x-ratelimit-complexity-hour-remaining"))).toBe(24);
    } finally {
      await small.close();
    }
  }, 120_000);
});

// cogames' policy upload with the blobs in an S3-compatible bucket (a real S3 server, s3rver):
// the address is the bucket's own, the zip is PUT there as cogames does it (`application/zip`),
// and completion reads it from the bucket; before the zip arrived, completion is a 409.
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { PolicySubmitCompleted, PolicySubmitStarted } from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startS3Server, type TestS3Server } from "../../testing/s3-server.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let s3: TestS3Server;
let t: TestServer;
let user: { token: string };

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestServer({
    env: { GAUNTLET_SCHEDULER: "off" },
    config: { blobStore: { kind: "s3", ...s3.options, prefix: "gauntlet-test" } },
  });
  user = await t.newUser();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe("cogames policy upload to an S3 bucket", () => {
  it("PUTs the zip to the bucket's address and completes from it", async () => {
    const api = client(t.url, user.token);
    const started = (await api.post<PolicySubmitStarted>("/stats/policies/submit/presigned-url"))
      .body;
    expect(started.upload_url.startsWith(`${s3.endpoint}/gauntlet/`)).toBe(true);
    const complete = () =>
      api.post<PolicySubmitCompleted>("/stats/policies/submit/complete", {
        upload_id: started.upload_id,
        name: "bucketed",
      });
    expect((await complete()).status).toBe(409);

    const zip = zipSync({ "policy_spec.json": strToU8('{"class_path": "p.P"}') });
    const put = await fetch(started.upload_url, {
      method: "PUT",
      headers: { "content-type": "application/zip" },
      body: zip,
    });
    expect(put.status).toBe(200);
    const done = await complete();
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ name: "bucketed", version: 1 });
    expect((await complete()).body.id).toBe(done.body.id);
  });
});

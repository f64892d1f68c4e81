// Policy bundles over real HTTP: an archive the runner would refuse is refused at upload with a
// 422 naming the entry, and a version whose `run` names no file of its bundle is refused at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { tarGz, type RawEntry } from "../../testing/tar-bytes.ts";

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
  token = (await t.newUser()).token;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function uploadBundle(bytes: Buffer) {
  const res = await fetch(`${t.url}/v2/policy-bundles/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const file = (path: string): RawEntry => ({ path, body: Buffer.from("print('hi')\n") });

describe("policy bundle uploads", () => {
  it.each([
    [
      "a symbolic link",
      { path: "escape", type: "2", linkTarget: "/" },
      'entry "escape" is a SymbolicLink',
    ],
    ["a backslash", file("bin\\run.sh"), "has a backslash in its name"],
    ["a 5,000-character name", file("n".repeat(5000)), "has a path longer than 1024 bytes"],
    // Absolute paths in any error message are cut to their last segment at the API boundary.
    ["an absolute path", file("/tmp/x"), 'entry "…/x" has an absolute path'],
    ["a climb out", file("../x"), 'entry "../x" climbs out of the bundle with ..'],
  ] as [string, RawEntry, string][])(
    "refuses %s with a 422 naming the entry",
    async (_what, entry, message) => {
      const res = await uploadBundle(tarGz([file("policy.py"), entry]));
      expect(res.status).toBe(422);
      const [detail] = res.body.detail as { loc: string[]; msg: string; type: string }[];
      expect(detail?.loc).toEqual(["body"]);
      expect(detail?.type).toBe("bundle_invalid");
      expect(detail?.msg).toContain(message);
    },
  );

  it("refuses a version whose run names no file of the bundle, naming it; takes one that does", async () => {
    const bundle = await uploadBundle(tarGz([{ path: "src", type: "5" }, file("src/policy.py")]));
    expect(bundle.status).toBe(201);
    const api = client(t.url, token);
    const missing = await api.post<{ detail: { loc: string[]; msg: string }[] }>(
      "/stats/policies/docker-img/complete",
      { name: "pybot", policy_bundle_id: bundle.body.id, run: ["python3", "policy.py"] },
    );
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.detail[0]?.loc).toEqual(["body", "run"]);
    expect(missing.body.detail[0]?.msg).toBe(
      `run names "policy.py", which is not a file in policy bundle ${String(bundle.body.id)}`,
    );
    const good = await api.post("/stats/policies/docker-img/complete", {
      name: "pybot",
      policy_bundle_id: bundle.body.id,
      run: ["python3", "./src/policy.py", "--fast"],
    });
    expect(good.status, good.text).toBe(200);
  });
});

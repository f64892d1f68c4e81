// Secrets scan: a started server (its stderr captured), used
// with every kind of credential — user tokens, a machine token, a player credential, a coworld
// secret — and swept over every GET operation of /openapi.json with each of them. Then the
// logs, every response body (except the one answer that hands a credential out) and every file
// of the data directory (blobs and the database) are searched for each credential: 0 hits.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { bestEffort } from "@gauntlet/core";

import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague } from "../../testing/test-league.ts";
import { operationsOf } from "./fuzz-cases.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("secrets scan", () => {
  let t: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      env: { GAUNTLET_RATE_LIMIT_MODE: "off", GAUNTLET_SCHEDULER: "off" },
      config: { logLevel: "debug" },
    });
    // The test server runs without its request logger; what it writes to stderr (errors of
    // league play, the event bus) is collected here the way a log shipper would.
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      logs.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      return write(chunk, ...rest);
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("finds no token, credential or coworld secret in logs, answers or stored files", async () => {
    const secrets = new Map<string, string>();
    const bodies: string[] = [];
    const call = async (
      method: string,
      path: string,
      token: string | undefined,
      body?: unknown,
      contentType = "application/json",
    ) => {
      const res = await fetch(`${t.url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { "content-type": contentType } : {}),
        },
        body:
          body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const tl = await createTestLeague(t);
    const user = await t.newUser();
    secrets.set("admin token", t.adminToken);
    secrets.set("user token", user.token);
    secrets.set("commissioner token", tl.commissioner.token);
    secrets.set("machine token", await t.machineToken("scan-runner"));
    const created = await call("POST", "/v2/tokens", user.token, { name: "scan" });
    expect(created.status).toBeLessThan(300);
    secrets.set("created API token", (JSON.parse(created.text) as { token: string }).token);
    const player = await tl.addPlayer("Scanned", { owner: user });
    const credential = await call("POST", `/players/${player.id}/credentials`, user.token, {
      name: "scan",
    });
    expect(credential.status).toBeLessThan(300);
    const credentialBody = JSON.parse(credential.text) as Record<string, unknown>;
    const credentialToken = typeof credentialBody.token === "string" ? credentialBody.token : "";
    if (credentialToken) secrets.set("player credential", credentialToken);
    const login = await call("POST", `/players/${player.id}/login`, user.token, {});
    secrets.set("player login token", (JSON.parse(login.text) as { token: string }).token);
    const coworld = (await call("GET", `/v2/coworlds/${tl.coworldId}`, tl.commissioner.token)).text;
    const coworldName = (JSON.parse(coworld) as { name: string }).name;
    const secretValue = `coworld-secret-${crypto.randomUUID()}`;
    secrets.set("coworld secret", secretValue);
    const put = await call(
      "PUT",
      `/v2/coworlds/secrets/${encodeURIComponent(coworldName)}/API_KEY`,
      tl.commissioner.token,
      secretValue,
      "application/octet-stream",
    );
    expect(put.status).toBeLessThan(300);

    // Sweep every GET operation with every credential (and none); all answers are scanned.
    const doc = JSON.parse((await call("GET", "/openapi.json", undefined)).text) as Record<
      string,
      unknown
    >;
    const fill: Record<string, string> = {
      league_id: tl.league.id,
      division_id: tl.divisions[0]?.id ?? "",
      coworld_id: tl.coworldId,
      coworld_name: coworldName,
      player_id: player.id,
      policy_version_id: player.policyVersionId,
    };
    let requests = 0;
    for (const op of operationsOf(doc).filter(
      (o) => o.method === "GET" && o.id !== "subscribeEvents",
    )) {
      const path = op.path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) =>
        encodeURIComponent(fill[name] ?? "none"),
      );
      for (const token of [undefined, ...secrets.values()]) {
        bodies.push((await call("GET", path, token)).text);
        requests += 1;
      }
    }
    await call(
      "GET",
      `/v2/coworlds/secrets/${encodeURIComponent(coworldName)}`,
      tl.commissioner.token,
    ).then((r) => bodies.push(r.text));

    await bestEffort(t.server.store.close());
    const stored = filesUnder(t.testStore.dataDir).map((file) => ({
      file,
      text: readFileSync(file).toString("latin1"),
    }));
    const haystacks = [
      ...bodies.map((text, i) => ({ where: `response ${i}`, text })),
      ...logs.map((text, i) => ({ where: `log line ${i}`, text })),
      ...stored.map((s) => ({ where: s.file, text: s.text })),
    ];
    const hits: string[] = [];
    for (const [name, secret] of secrets)
      for (const h of haystacks) if (h.text.includes(secret)) hits.push(`${name} in ${h.where}`);
    process.stdout.write(
      `secrets scan: ${secrets.size} secrets (${[...secrets.keys()].join(", ")}), ${requests + 1} responses, ${stored.length} stored files, ${logs.length} log lines: ${hits.length} hits\n`,
    );
    expect(hits).toEqual([]);
  }, 300_000);
});

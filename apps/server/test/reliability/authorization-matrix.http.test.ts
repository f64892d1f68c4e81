// The authorization matrix: every operation of the contract × every kind of caller, checked
// against the access each operation declares in the contract (`access`, or the default derived
// from `auth`, which the output names). A private object is 404 (or 403) to those who may not
// see it, and a write refused to the wrong subject changes no table.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { z } from "zod";

import {
  accessOf,
  operations as contractOperations,
  ELEVATION_HEADER,
  type Access,
  type OperationDef,
} from "@gauntlet/core";

import { client } from "../../testing/http.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";
import { createTestLeague, type TestLeague } from "../../testing/test-league.ts";
import { arbitraryFor, type Components } from "./arbitraries.ts";
import { operationsOf } from "./fuzz-cases.ts";
import { changedTables, openTableSnapshots } from "./table-snapshot.ts";

type SubjectName =
  | "anonymous"
  | "user"
  | "other_user"
  | "player"
  | "machine"
  | "commissioner_machine"
  | "commissioner"
  | "admin";
// The machine tokens belong to the owners of the fixtures (the user's players, the commissioner's
// league and coworld): a machine token must never act with its owner's powers.
const MACHINES = new Set<SubjectName>(["machine", "commissioner_machine"]);
const SUBJECTS: readonly SubjectName[] = [
  "anonymous",
  "other_user",
  "machine",
  "commissioner_machine",
  "player",
  "user",
  "commissioner",
  "admin",
];
const PEOPLE = new Set<SubjectName>(["user", "other_user", "commissioner", "admin"]);

interface Cell {
  op: string;
  subject: SubjectName;
  status: number;
}

/** Which statuses a subject may get from an operation with this access (undefined: anything below 500). */
function allowedStatuses(
  access: Access,
  op: OperationDef,
  subject: SubjectName,
  owner: SubjectName | undefined,
): (status: number) => boolean {
  const signedIn = subject !== "anonymous";
  if (!signedIn && op.auth === "required") return (s) => s === 401;
  const notRefused = (s: number) => s !== 401 && s !== 403;
  if (MACHINES.has(subject)) {
    // The runner role alone: the work queue, and public operations read as anonymous.
    if (access === "runner") return notRefused;
    if (access === "public") return op.auth === "required" ? (s) => s === 401 : notRefused;
    if (access === "credential") return (s) => s !== 403;
    return (s) => s === 403;
  }
  switch (access) {
    case "public":
      return notRefused;
    case "credential":
      return (s) => s !== 403;
    case "signed_in":
      return (s) => s !== 401;
    case "user":
      return PEOPLE.has(subject) ? notRefused : (s) => s !== 401;
    case "admin":
      return subject === "admin" ? notRefused : (s) => s === 403 || s === 404;
    case "runner":
      return (s) => s === 403;
    case "owner":
      if (!owner) return (s) => s !== 401;
      // A player's own token acts for that player on some of its operations (and is refused on others).
      if (subject === "player" && owner === "user") return (s) => s !== 401;
      return subject === owner || subject === "admin"
        ? (s) => notRefused(s) && s !== 404
        : (s) => s === 403 || s === 404;
  }
}

describe("authorization matrix", () => {
  let t: TestServer;
  let league: TestLeague;
  beforeAll(async () => {
    t = await startTestServer({
      env: { GAUNTLET_RATE_LIMIT_MODE: "off", GAUNTLET_SCHEDULER: "off" },
    });
    league = await createTestLeague(t, { public: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("hides a private evaluation's episodes and a private version from everyone but those who may see them", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const player = await league.addPlayer("Private", { owner: user });
    // The user cannot see the private league; an admin enters its version there.
    await league.submit(player, {}, t.adminToken);
    const login = await client(t.url, user.token).post<{ token: string }>(
      `/players/${player.id}/login`,
      {},
    );
    const tokens: Record<SubjectName, string | undefined> = {
      anonymous: undefined,
      user: user.token,
      other_user: other.token,
      player: login.body.token,
      machine: await t.machineToken("matrix-visibility", user.id),
      commissioner_machine: await t.machineToken(
        "matrix-visibility-commissioner",
        league.commissioner.id,
      ),
      commissioner: league.commissioner.token,
      admin: t.adminToken,
    };
    const evaluation = await client(t.url, user.token).post<{ episodes: { id: string }[] }>(
      "/v2/experience-requests",
      {
        coworld_id: league.coworldId,
        roster: [0, 1].map(() => ({ player: { policy_ref: player.policyVersionId } })),
        num_episodes: 1,
      },
    );
    expect(evaluation.status, JSON.stringify(evaluation.body)).toBe(201);
    const episode = evaluation.body.episodes[0]?.id ?? "";
    const version = player.policyVersionId;
    // The user and its player act for the same person; the version also plays in the (private)
    // league its commissioner sees.
    const episodeViewers = new Set<SubjectName>(["user", "player", "admin"]);
    const versionViewers = new Set<SubjectName>([...episodeViewers, "commissioner"]);
    const reads: [string, Set<SubjectName>][] = [
      [`/v2/policy-versions/${version}`, versionViewers],
      [`/v2/episode-requests/${episode}`, episodeViewers],
      [`/v2/episode-requests/${episode}/artifacts/spec`, episodeViewers],
      [`/v2/episode-requests/${episode}/artifacts/game-config`, episodeViewers],
      [`/v2/episode-requests/${episode}/policy-artifacts`, episodeViewers],
      [`/v2/episode-requests/${episode}/bundle`, episodeViewers],
    ];
    const lists: [string, (body: unknown) => string[], string, Set<SubjectName>][] = [
      [
        "/v2/policy-versions?limit=500",
        (b) => (b as { id: string }[]).map((v) => v.id),
        version,
        versionViewers,
      ],
      [
        "/stats/policy-versions?limit=500",
        (b) => (b as { entries: { id: string }[] }).entries.map((v) => v.id),
        version,
        versionViewers,
      ],
      [
        "/v2/episode-requests?limit=200",
        (b) => (b as { entries: { id: string }[] }).entries.map((e) => e.id),
        episode,
        episodeViewers,
      ],
      [
        "/v2/episode-requests/changes?limit=500",
        (b) => (b as { entries: { id: string }[] }).entries.map((e) => e.id),
        episode,
        episodeViewers,
      ],
    ];
    const problems: string[] = [];
    let cells = 0;
    for (const subject of SUBJECTS) {
      const api = client(t.url, tokens[subject]);
      for (const [path, viewers] of reads) {
        const { status } = await api.get(path);
        cells++;
        const ok = viewers.has(subject) ? status === 200 : status === 404 || status === 403;
        if (!ok) problems.push(`GET ${path} as ${subject}: ${status}`);
      }
      for (const [path, ids, id, viewers] of lists) {
        const res = await api.get(path);
        cells++;
        if (res.status !== 200) {
          problems.push(`GET ${path} as ${subject}: ${res.status}`);
          continue;
        }
        if (ids(res.body).includes(id) !== viewers.has(subject))
          problems.push(
            `GET ${path} as ${subject}: ${viewers.has(subject) ? "lacks" : "lists"} ${id}`,
          );
      }
    }
    process.stdout.write(`authorization matrix, visibility: ${cells} cells\n`);
    expect(problems).toEqual([]);
  }, 120_000);

  it("gives every subject exactly the access its operation declares, and refused writes change nothing", async () => {
    const user = await t.newUser();
    const other = await t.newUser();
    const player = await league.addPlayer("Owned", { owner: user });
    const login = await client(t.url, user.token).post<{ token: string }>(
      `/players/${player.id}/login`,
      {},
    );
    expect(login.status).toBe(200);
    const credential = await client(t.url, user.token).post<{ id: string }>(
      `/players/${player.id}/credentials`,
      { name: "matrix" },
    );
    expect(credential.status).toBe(201);
    const tokens: Record<SubjectName, string | undefined> = {
      anonymous: undefined,
      user: user.token,
      other_user: other.token,
      player: login.body.token,
      machine: await t.machineToken("matrix-runner", user.id),
      commissioner_machine: await t.machineToken(
        "matrix-commissioner-runner",
        league.commissioner.id,
      ),
      commissioner: league.commissioner.token,
      admin: t.adminToken,
    };
    // Path parameters that name a real object, and whose object that is.
    const fixtures = (): Record<string, { value: string; owner: SubjectName }> => ({
      league_id: { value: league.league.id, owner: "commissioner" },
      division_id: { value: league.divisions[0]?.id ?? "", owner: "commissioner" },
      coworld_id: { value: league.coworldId, owner: "commissioner" },
      player_id: { value: player.id, owner: "user" },
      credential_id: { value: credential.body.id, owner: "user" },
      policy_version_id: { value: player.policyVersionId, owner: "user" },
    });

    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as Record<string, unknown>;
    const components = (doc.components as { schemas?: Components } | undefined)?.schemas ?? {};
    const byId = new Map(contractOperations.map((op) => [op.id, op]));
    const cells: Cell[] = [];
    const problems: string[] = [];
    const defaulted: string[] = [];
    const snapshots = await openTableSnapshots(t.testStore);
    onTestFinished(() => snapshots.close());
    for (const [index, op] of operationsOf(doc).entries()) {
      const def = byId.get(op.id);
      if (!def) {
        problems.push(`${op.id}: in /openapi.json but not in the contract`);
        continue;
      }
      const { access, declared } = accessOf(def);
      if (!declared) defaulted.push(op.id);
      if (def.responseKind === "html" || op.id === "subscribeEvents") continue;
      const known = fixtures();
      let owner: SubjectName | undefined;
      const values: Record<string, string> = {};
      for (const p of op.pathParams) {
        const fixture = known[p.name];
        if (fixture?.value) {
          values[p.name] = fixture.value;
          owner ??= fixture.owner;
        } else {
          const shape = def.params?.shape[p.name];
          const candidates = fc.sample(arbitraryFor(p.schema, components, 0, false), {
            seed: index,
            numRuns: 30,
          });
          values[p.name] = String(
            candidates.find((c) => (shape as z.ZodType | undefined)?.safeParse(c).success) ??
              candidates[0],
          );
        }
      }
      const path = op.path.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) =>
        encodeURIComponent(values[name] ?? "x"),
      );
      // A body of the right shape, so that a refusal is not hidden behind a 422.
      let body: string | Uint8Array | undefined;
      const headers: Record<string, string> = {};
      if (op.body) {
        headers["content-type"] = op.body.contentType;
        if (op.body.contentType === "application/json") {
          const candidates = fc.sample(arbitraryFor(op.body.schema, components, 0, false), {
            seed: index,
            numRuns: 100,
          });
          const valid =
            candidates.find((c) => def.body?.safeParse(c).success) ?? candidates[0] ?? {};
          body = JSON.stringify(valid);
        } else body = new TextEncoder().encode("matrix");
      }
      for (const subject of SUBJECTS) {
        // Only a refused write is checked for changes (a read changes nothing to compare).
        const before = op.method === "GET" ? undefined : await snapshots.take();
        const token = tokens[subject];
        const res = await fetch(`${t.url}${path}`, {
          method: op.method,
          headers: {
            ...headers,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            // The admin acts with its powers (an unelevated admin is an ordinary user:
            // src/access/elevation.http.test.ts).
            ...(subject === "admin" ? { [ELEVATION_HEADER]: "true" } : {}),
          },
          body,
          redirect: "manual",
        });
        const text = await res.text();
        cells.push({ op: op.id, subject, status: res.status });
        if (res.status >= 500) problems.push(`${op.id} as ${subject}: ${res.status}`);
        const rule = allowedStatuses(access, def, subject, owner);
        if (!rule(res.status))
          problems.push(
            `${op.id} (${access}${declared ? "" : ", default"}) as ${subject}: got ${res.status} ${res.status === 422 ? text.slice(0, 200) : ""}`,
          );
        if (before && [401, 403, 404].includes(res.status)) {
          const changed = changedTables(before, await snapshots.take());
          if (changed.length)
            problems.push(
              `${op.id} as ${subject}: refused with ${res.status} but changed ${changed.join(", ")}`,
            );
        }
      }
      // An allowed write may have replaced the league's divisions: follow them.
      const listed = await client(t.url, league.commissioner.token).get<
        { id: string; level: number }[]
      >(`/v2/divisions?league_id=${league.league.id}`);
      if (listed.status === 200 && listed.body.length)
        league.divisions = [...listed.body].sort(
          (a, b) => a.level - b.level,
        ) as typeof league.divisions;
    }
    const lines = [
      `authorization matrix: ${cells.length} cells (${new Set(cells.map((c) => c.op)).size} operations × ${SUBJECTS.length} subjects: ${SUBJECTS.join(", ")})`,
      `operations relying on the access derived from auth: ${defaulted.length ? defaulted.join(", ") : "none"}`,
      "not covered: reporter keys (X-Reporter-Key: every bearer subject is 401 here; keys are checked in src/reporters/reporters.http.test.ts); HTML pages and the WebSocket upgrade",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    if (problems.length) process.stdout.write(`matrix problems:\n${problems.join("\n")}\n`);
    expect(problems).toEqual([]);
    expect(cells.length).toBeGreaterThan(400);
  }, 600_000);
});

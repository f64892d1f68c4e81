// Reading a bulk-upload DuckDB file: what it returns, and each fault in its rows named plainly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";

import { DEFAULT_READER_LIMITS, lockedConfig, readEpisodeFile } from "./duckdb-episodes.ts";
import { DEFAULT_SANDBOX, readEpisodeFileBoxed } from "./duckdb-sandbox.ts";

const dir = mkdtempSync(join(tmpdir(), "gauntlet-duckdb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = {
  episodes: [
    "('e1', 'cw', timestamp '2026-01-01 00:00:00', 'https://replays.example/e1')",
    "('e2', 'cw', null, null)",
  ],
  seats: ["('e1', 2, 'pv-b')", "('e1', 0, 'pv-a')", "('e1', 1, 'pv-a')", "('e2', 0, 'pv-b')"],
  metrics: [
    "('e1', 0, 'reward', 1.5)",
    "('e1', 1, 'reward', 2.0)",
    "('e1', 1, 'hearts', 3.0)",
    "('e1', 1, 'hearts', 1.0)",
    "('e1', 2, 'reward', 4.0)",
  ],
  tags: ["('e1', 'source', 'elsewhere')"],
};

let files = 0;
async function file(rows: Partial<typeof GOOD>): Promise<string> {
  const r = { ...GOOD, ...rows };
  const path = join(dir, `f${++files}.duckdb`);
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  const values = (list: string[], empty: string) =>
    list.length ? `values ${list.join(", ")}` : empty;
  try {
    await conn.run(
      "create table episodes (id varchar, coworld_id varchar, created_at timestamp, replay_url varchar)",
    );
    await conn.run(
      "create table episode_agent_policies (episode_id varchar, agent_id integer, policy_version_id varchar)",
    );
    await conn.run(
      "create table episode_agent_metrics (episode_id varchar, agent_id integer, metric varchar, value double)",
    );
    await conn.run("create table episode_tags (episode_id varchar, key varchar, value varchar)");
    if (r.episodes.length) await conn.run(`insert into episodes ${values(r.episodes, "")}`);
    if (r.seats.length) await conn.run(`insert into episode_agent_policies ${values(r.seats, "")}`);
    if (r.metrics.length)
      await conn.run(`insert into episode_agent_metrics ${values(r.metrics, "")}`);
    if (r.tags.length) await conn.run(`insert into episode_tags ${values(r.tags, "")}`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return path;
}

describe("readEpisodeFile", () => {
  it("returns each episode with its participants (by lowest agent), summed rewards and metrics, and tags", async () => {
    const episodes = await readEpisodeFile(await file({}));
    expect(episodes).toHaveLength(2);
    const [e1, e2] = episodes;
    expect(e1).toMatchObject({
      sourceId: "e1",
      coworldId: "cw",
      replayUrl: "https://replays.example/e1",
      tags: { source: "elsewhere" },
    });
    expect(e1?.createdAt).toMatch(/^2026-01-01/);
    expect(e1?.participants).toEqual([
      {
        policyVersionId: "pv-a",
        score: 3.5,
        agents: [
          { agent_id: 0, reward: 1.5, metrics: { reward: 1.5 } },
          { agent_id: 1, reward: 2, metrics: { reward: 2, hearts: 4 } },
        ],
        metrics: {},
      },
      {
        policyVersionId: "pv-b",
        score: 4,
        agents: [{ agent_id: 2, reward: 4, metrics: { reward: 4 } }],
        metrics: {},
      },
    ]);
    expect(e2).toEqual({
      sourceId: "e2",
      coworldId: "cw",
      createdAt: null,
      replayUrl: null,
      thumbnailUrl: null,
      primaryPolicyVersionId: null,
      attributes: null,
      evalTaskId: null,
      tags: {},
      participants: [
        {
          policyVersionId: "pv-b",
          score: 0,
          agents: [{ agent_id: 0, reward: 0, metrics: {} }],
          metrics: {},
        },
      ],
    });
  });

  it.each([
    [
      "a duplicate episode id",
      { episodes: [...GOOD.episodes, "('e1', 'cw', null, null)"] },
      "episodes.id e1 appears twice",
    ],
    [
      "an empty episode id",
      { episodes: [...GOOD.episodes, "('', 'cw', null, null)"] },
      "episodes.id is empty in a row",
    ],
    [
      "a seat of an unknown episode",
      { seats: [...GOOD.seats, "('e9', 0, 'pv-a')"] },
      "episode_agent_policies names episode e9, which is not in episodes",
    ],
    [
      "a metric of an unseated agent",
      { metrics: [...GOOD.metrics, "('e2', 5, 'reward', 1.0)"] },
      "episode_agent_metrics has agent 5 of episode e2, which episode_agent_policies does not seat",
    ],
    [
      "a tag of an unknown episode",
      { tags: [...GOOD.tags, "('e9', 'k', 'v')"] },
      "episode_tags names episode e9, which is not in episodes",
    ],
    [
      "an episode without seats",
      { episodes: [...GOOD.episodes, "('e3', 'cw', null, null)"] },
      "episode e3 has no rows in episode_agent_policies",
    ],
  ])("refuses %s, saying which", async (_what, rows, message) => {
    await expect(readEpisodeFile(await file(rows))).rejects.toMatchObject({
      status: 400,
      type: "invalid_upload",
      message,
    });
  });
});

/** A file made by running `statements` (after the good tables) in a fresh DuckDB database. */
async function hostile(statements: string[], base: Partial<typeof GOOD> = {}): Promise<string> {
  const path = await file(base);
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    for (const sql of statements) await conn.run(sql);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return path;
}

describe("a hostile file, read in the box", () => {
  const secret = join(dir, "first-admin.txt");
  writeFileSync(secret, "admin-password-s3cr3t");

  it.each([
    [
      "a view over read_text of the server's files",
      [
        "drop table episode_tags",
        `create view episode_tags as select 'e1' as episode_id, 'leak' as key, content as value from read_text(['${secret}'])`,
      ],
      "episode_tags is a view in the DuckDB file",
    ],
    [
      "a view over glob (a directory listing)",
      [
        "drop table episode_tags",
        `create view episode_tags as select 'e1' as episode_id, file as key, file as value from glob('${dir}/*')`,
      ],
      "episode_tags is a view in the DuckDB file",
    ],
    [
      "a macro shadowing a built-in function the reader calls",
      ["create macro json_object(a, b) as 'pwned'"],
      "the DuckDB file defines macro json_object",
    ],
    [
      "a table macro shadowing the catalog the reader checks",
      ["create macro duckdb_views() as table select 'none' as view_name"],
      "the DuckDB file defines table macro duckdb_views",
    ],
    [
      "a computed column",
      [
        "drop table episode_tags",
        "create table episode_tags (episode_id varchar, key varchar, value varchar generated always as (upper(key)))",
      ],
      "column episode_tags.value of the DuckDB file is computed",
    ],
  ])("refuses %s, naming it, and leaks nothing", async (_what, statements, message) => {
    const refusal = await readEpisodeFileBoxed(await hostile(statements)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ status: 400, type: "invalid_upload" });
    const text = refusal instanceof Error ? refusal.message : "";
    expect(text).toContain(message);
    expect(text).not.toContain("s3cr3t");
    expect(text).not.toContain("first-admin");
  });

  it("opens the file with file access off and the setting locked, so a query cannot reach out", async () => {
    const instance = await DuckDBInstance.create(
      await file({}),
      lockedConfig(DEFAULT_READER_LIMITS),
    );
    const conn = await instance.connect();
    try {
      await expect(conn.run(`select * from read_text(['${secret}'])`)).rejects.toThrow(
        /disabled by configuration/,
      );
      await expect(conn.run(`select * from glob('${dir}/*')`)).rejects.toThrow(
        /disabled by configuration/,
      );
      await expect(conn.run("set enable_external_access = true")).rejects.toThrow(/locked/);
      await expect(conn.run("load httpfs")).rejects.toThrow();
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it("stops a reader that outlives its time budget", async () => {
    await expect(
      readEpisodeFileBoxed(await file({}), { ...DEFAULT_SANDBOX, timeoutMs: 1 }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("took longer") });
  });

  it("reads a good file in the box as it reads it in process", async () => {
    const path = await file({});
    expect(await readEpisodeFileBoxed(path)).toEqual(await readEpisodeFile(path));
  });
});

describe("an upstream-format file", () => {
  it("is read whole: no coworld_id, its primary policy, attributes, eval task and policy metrics kept", async () => {
    const path = await hostile(
      [
        "drop table episodes",
        "create table episodes (id varchar primary key, primary_pv_id varchar, replay_url varchar, thumbnail_url varchar, attributes json, eval_task_id varchar)",
        `insert into episodes values ('e1', 'pv-a', 'https://replays.example/e1', 'https://thumbs.example/e1', '{"seed": 7, "map": "arena"}', 'task-1'), ('e2', null, null, null, null, null)`,
        "create table episode_policy_metrics (episode_id varchar not null, policy_version_id varchar not null, metric varchar not null, value real, primary key (episode_id, policy_version_id, metric))",
        "insert into episode_policy_metrics values ('e1', 'pv-a', 'avg_reward', 1.75), ('e1', 'pv-b', 'avg_reward', 4)",
      ],
      {},
    );
    const [e1, e2] = await readEpisodeFileBoxed(path);
    expect(e1).toMatchObject({
      sourceId: "e1",
      coworldId: null,
      primaryPolicyVersionId: "pv-a",
      replayUrl: "https://replays.example/e1",
      thumbnailUrl: "https://thumbs.example/e1",
      attributes: { seed: 7, map: "arena" },
      evalTaskId: "task-1",
      tags: { source: "elsewhere" },
    });
    expect(e1?.participants.map((p) => [p.policyVersionId, p.score, p.metrics])).toEqual([
      ["pv-a", 3.5, { avg_reward: 1.75 }],
      ["pv-b", 4, { avg_reward: 4 }],
    ]);
    expect(e2).toMatchObject({ sourceId: "e2", coworldId: null, attributes: null });
  });

  it.each([
    [
      "a primary policy not seated in its episode",
      [
        "alter table episodes add column primary_pv_id varchar",
        "update episodes set primary_pv_id = 'pv-z' where id = 'e1'",
      ],
      "episodes.primary_pv_id pv-z of episode e1 is not a policy version seated in that episode",
    ],
    [
      "policy metrics of an unseated policy",
      [
        "create table episode_policy_metrics (episode_id varchar, policy_version_id varchar, metric varchar, value double)",
        "insert into episode_policy_metrics values ('e2', 'pv-a', 'avg_reward', 1)",
      ],
      "episode_policy_metrics has policy version pv-a of episode e2, which episode_agent_policies does not seat",
    ],
  ])("refuses %s, saying which", async (_what, statements, message) => {
    await expect(readEpisodeFile(await hostile(statements))).rejects.toMatchObject({
      status: 400,
      message,
    });
  });
});

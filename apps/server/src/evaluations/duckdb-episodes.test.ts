// Reading a bulk-upload DuckDB file: what it returns, and each fault in its rows named plainly.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";

import { readEpisodeFile } from "./duckdb-episodes.ts";

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
      },
      {
        policyVersionId: "pv-b",
        score: 4,
        agents: [{ agent_id: 2, reward: 4, metrics: { reward: 4 } }],
      },
    ]);
    expect(e2).toEqual({
      sourceId: "e2",
      coworldId: "cw",
      createdAt: null,
      replayUrl: null,
      tags: {},
      participants: [
        { policyVersionId: "pv-b", score: 0, agents: [{ agent_id: 0, reward: 0, metrics: {} }] },
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
      "an empty coworld",
      {
        episodes: [...GOOD.episodes, "('e3', null, null, null)"],
        seats: [...GOOD.seats, "('e3', 0, 'pv-a')"],
      },
      "episodes.coworld_id is empty for episode e3",
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

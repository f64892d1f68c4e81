// Test and benchmark support: writes a real bulk-upload DuckDB file of `episodes` two-seat
// episodes (agent 0 plays `policyVersionIds[0]`, agent 1 the other), with rewards that follow
// from the episode number, one tag each, and a way to leave out a table or a column. With
// `upstream`, the layout the hosted service's tools write: `episodes(id, primary_pv_id,
// replay_url, thumbnail_url, attributes JSON, eval_task_id)` (no coworld_id) and
// `episode_policy_metrics`.
import { DuckDBInstance } from "@duckdb/node-api";

export interface EpisodeFileOptions {
  episodes: number;
  coworldId: string;
  policyVersionIds: [string, string];
  omitTable?: "episodes" | "episode_tags" | "episode_agent_policies" | "episode_agent_metrics";
  omitColumn?: { table: string; column: string };
  upstream?: boolean;
  /** Statements run after the tables are made (a hostile file's view, macro, …). */
  then?: string[];
}

/** Agent a's reward in episode i (the tests check sums against it). */
export const rewardOf = (i: number, agent: number) => ((i * 7 + agent * 3) % 10) + agent;

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function writeEpisodeFile(path: string, options: EpisodeFileOptions): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  const [a, b] = options.policyVersionIds;
  const tables: Record<string, string> = {
    episodes: options.upstream
      ? `select 'ep-' || lpad(cast(i as varchar), 7, '0') as id, ${quote(a)} as primary_pv_id, 'https://replays.example/' || i as replay_url, 'https://thumbs.example/' || i as thumbnail_url, json_object('episode', i, 'map', 'arena') as attributes, 'task-' || i as eval_task_id from range(${options.episodes}) t(i)`
      : `select 'ep-' || lpad(cast(i as varchar), 7, '0') as id, ${quote(options.coworldId)} as coworld_id, timestamp '2026-01-01 00:00:00' + to_seconds(i) as created_at from range(${options.episodes}) t(i)`,
    episode_tags: `select 'ep-' || lpad(cast(i as varchar), 7, '0') as episode_id, 'source' as key, 'elsewhere' as value from range(${options.episodes}) t(i)`,
    episode_agent_policies: `select 'ep-' || lpad(cast(i as varchar), 7, '0') as episode_id, agent as agent_id, case when agent = 0 then ${quote(a)} else ${quote(b)} end as policy_version_id from range(${options.episodes}) t(i), range(2) s(agent)`,
    episode_agent_metrics: `select 'ep-' || lpad(cast(i as varchar), 7, '0') as episode_id, agent as agent_id, 'reward' as metric, cast(((i * 7 + agent * 3) % 10) + agent as double) as value from range(${options.episodes}) t(i), range(2) s(agent)
      union all select 'ep-' || lpad(cast(i as varchar), 7, '0'), agent, 'hearts', cast(agent + 1 as double) from range(${options.episodes}) t(i), range(2) s(agent)`,
    ...(options.upstream
      ? {
          episode_policy_metrics: `select 'ep-' || lpad(cast(i as varchar), 7, '0') as episode_id, case when agent = 0 then ${quote(a)} else ${quote(b)} end as policy_version_id, 'avg_reward' as metric, cast(((i * 7 + agent * 3) % 10) + agent as real) as value from range(${options.episodes}) t(i), range(2) s(agent)`,
        }
      : {}),
  };
  try {
    for (const [table, select] of Object.entries(tables)) {
      if (options.omitTable === table) continue;
      await conn.run(`create table ${table} as ${select}`);
      if (options.omitColumn?.table === table)
        await conn.run(`alter table ${table} drop column ${options.omitColumn.column}`);
    }
    for (const sql of options.then ?? []) await conn.run(sql);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

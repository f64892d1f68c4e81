// Reads a bulk-upload DuckDB file: checks its four tables and their columns, and returns its
// episodes with one participant per distinct policy version (ordered by its lowest agent_id),
// reward summed per policy version, agent metrics and tags. Pure reading: it writes nothing.
import { DuckDBInstance } from "@duckdb/node-api";

import { ServiceError } from "../shared/errors.ts";

export const REQUIRED_COLUMNS: Record<string, string[]> = {
  episodes: ["id", "coworld_id"],
  episode_tags: ["episode_id", "key", "value"],
  episode_agent_policies: ["episode_id", "agent_id", "policy_version_id"],
  episode_agent_metrics: ["episode_id", "agent_id", "metric", "value"],
};

export interface UploadedParticipant {
  policyVersionId: string;
  score: number;
  agents: { agent_id: number; reward: number; metrics: Record<string, number> }[];
}

export interface UploadedEpisode {
  sourceId: string;
  coworldId: string;
  createdAt: string | null;
  replayUrl: string | null;
  tags: Record<string, string>;
  participants: UploadedParticipant[];
}

export const invalidUpload = (message: string) => new ServiceError(400, "invalid_upload", message);

// DuckDB's value classes (timestamps, decimals, lists) carry their own toString.
// eslint-disable-next-line @typescript-eslint/no-base-to-string
const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v));

export async function readEpisodeFile(path: string): Promise<UploadedEpisode[]> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  } catch (error) {
    throw invalidUpload(
      `the uploaded file is not a DuckDB database (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
    );
  }
  const conn = await instance.connect();
  try {
    const columns = (
      await conn.runAndReadAll("select table_name, column_name from information_schema.columns")
    ).getRowObjectsJS();
    const have = new Map<string, Set<string>>();
    for (const c of columns) {
      const set = have.get(text(c.table_name)) ?? new Set<string>();
      set.add(text(c.column_name));
      have.set(text(c.table_name), set);
    }
    const missing: string[] = [];
    for (const [table, cols] of Object.entries(REQUIRED_COLUMNS)) {
      const found = have.get(table);
      if (!found) missing.push(`table ${table}`);
      else for (const col of cols) if (!found.has(col)) missing.push(`column ${table}.${col}`);
    }
    if (missing.length) throw invalidUpload(`the DuckDB file lacks ${missing.join(", ")}`);
    const episodeCols = have.get("episodes") ?? new Set<string>();
    const createdAt = episodeCols.has("created_at") ? "cast(e.created_at as varchar)" : "null";
    const replayUrl = episodeCols.has("replay_url") ? "cast(e.replay_url as varchar)" : "null";

    // The file's faults, each found by one query that stops at the first offending row.
    const first = async (sql: string): Promise<string | undefined> => {
      const row = (await conn.runAndReadAll(`${sql} limit 1`)).getRows()[0];
      return row === undefined ? undefined : text(row[0]);
    };
    const checks: [string, (found: string) => string][] = [
      [
        `select '' from episodes where id is null or cast(id as varchar) = ''`,
        () => "episodes.id is empty in a row",
      ],
      [
        `select cast(id as varchar) from episodes group by 1 having count(*) > 1`,
        (id) => `episodes.id ${id} appears twice`,
      ],
      [
        `select cast(id as varchar) from episodes where coworld_id is null or cast(coworld_id as varchar) = ''`,
        (id) => `episodes.coworld_id is empty for episode ${id}`,
      ],
      [
        `select cast(s.episode_id as varchar) from episode_agent_policies s anti join episodes e on cast(e.id as varchar) = cast(s.episode_id as varchar)`,
        (id) => `episode_agent_policies names episode ${id}, which is not in episodes`,
      ],
      [
        `select cast(m.agent_id as varchar) || ' of episode ' || cast(m.episode_id as varchar) from episode_agent_metrics m anti join episode_agent_policies s on cast(s.episode_id as varchar) = cast(m.episode_id as varchar) and cast(s.agent_id as integer) = cast(m.agent_id as integer)`,
        (which) =>
          `episode_agent_metrics has agent ${which}, which episode_agent_policies does not seat`,
      ],
      [
        `select cast(t.episode_id as varchar) from episode_tags t anti join episodes e on cast(e.id as varchar) = cast(t.episode_id as varchar)`,
        (id) => `episode_tags names episode ${id}, which is not in episodes`,
      ],
      [
        `select cast(e.id as varchar) from episodes e anti join episode_agent_policies s on cast(s.episode_id as varchar) = cast(e.id as varchar)`,
        (id) => `episode ${id} has no rows in episode_agent_policies`,
      ],
    ];
    for (const [sql, message] of checks) {
      const found = await first(sql);
      if (found !== undefined) throw invalidUpload(message(found));
    }

    // DuckDB joins and sums; JavaScript gets one row per episode, its participants and tags as
    // JSON. A participant is a distinct policy version, in the order of its lowest agent_id; its
    // score is the sum of its agents' "reward" metrics; each agent's metrics are summed by name.
    const rows = (
      await conn.runAndReadAll(`
        with seats as (
          select cast(episode_id as varchar) as eid, cast(agent_id as integer) as aid, cast(policy_version_id as varchar) as pv from episode_agent_policies
        ), sums as (
          select cast(episode_id as varchar) as eid, cast(agent_id as integer) as aid, cast(metric as varchar) as metric, sum(cast(value as double)) as v
          from episode_agent_metrics group by all
        ), agent_metrics as (
          select eid, aid, coalesce(sum(v) filter (where metric = 'reward'), 0) as reward, json_group_object(metric, v) as metrics
          from sums group by eid, aid
        ), agents as (
          select s.eid, s.pv, s.aid, coalesce(a.reward, 0) as reward, coalesce(a.metrics, '{}') as metrics
          from seats s left join agent_metrics a on a.eid = s.eid and a.aid = s.aid
        ), participants as (
          select eid, pv, min(aid) as first_aid, sum(reward) as score,
            list(json_object('agent_id', aid, 'reward', reward, 'metrics', json(metrics)) order by aid) as agents
          from agents group by eid, pv
        ), by_episode as (
          select eid, to_json(list(json_object('policyVersionId', pv, 'score', score, 'agents', agents) order by first_aid)) as participants
          from participants group by eid
        ), tags as (
          select cast(episode_id as varchar) as eid, json_group_object(cast(key as varchar), cast(value as varchar)) as tags from episode_tags group by all
        )
        select cast(e.id as varchar), cast(e.coworld_id as varchar), ${createdAt}, ${replayUrl}, p.participants, t.tags
        from episodes e join by_episode p on p.eid = cast(e.id as varchar) left join tags t on t.eid = cast(e.id as varchar)
        order by 1`)
    ).getRows();
    const out: UploadedEpisode[] = new Array<UploadedEpisode>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [id, coworldId, created, replay, participants, tags] = rows[i] ?? [];
      out[i] = {
        sourceId: text(id),
        coworldId: text(coworldId),
        createdAt: created === null || created === undefined ? null : text(created),
        replayUrl: replay === null || replay === undefined ? null : text(replay),
        tags:
          tags === null || tags === undefined
            ? {}
            : (JSON.parse(text(tags)) as Record<string, string>),
        participants: JSON.parse(text(participants)) as UploadedParticipant[],
      };
    }
    return out;
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw invalidUpload(
      `the DuckDB file could not be read: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

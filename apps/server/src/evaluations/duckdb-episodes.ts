// Reads a bulk-upload DuckDB file: checks its tables and their columns, and returns its
// episodes with one participant per distinct policy version (ordered by its lowest agent_id),
// reward summed per policy version, agent metrics, policy metrics and tags. Pure reading: it
// writes nothing. The file is hostile until read: it runs in a child process (see
// duckdb-sandbox.ts) and DuckDB opens it with every door to the outside shut.
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

import { ServiceError } from "../shared/errors.ts";

/** The tables read and the columns each must have (the hosted service's tools write these). */
export const REQUIRED_COLUMNS: Record<string, string[]> = {
  episodes: ["id"],
  episode_tags: ["episode_id", "key", "value"],
  episode_agent_policies: ["episode_id", "agent_id", "policy_version_id"],
  episode_agent_metrics: ["episode_id", "agent_id", "metric", "value"],
};
/** Read when present: policy-level metrics (upstream's `episode_policy_metrics`). */
export const OPTIONAL_TABLES: Record<string, string[]> = {
  episode_policy_metrics: ["episode_id", "policy_version_id", "metric", "value"],
};
/** Optional columns of `episodes`, read when present. */
type EpisodeColumn =
  | "coworld_id"
  | "created_at"
  | "replay_url"
  | "thumbnail_url"
  | "primary_pv_id"
  | "attributes"
  | "eval_task_id";

export interface UploadedParticipant {
  policyVersionId: string;
  score: number;
  agents: { agent_id: number; reward: number; metrics: Record<string, number> }[];
  /** The file's `episode_policy_metrics` for this policy version in this episode. */
  metrics: Record<string, number>;
}

export interface UploadedEpisode {
  sourceId: string;
  /** Null when the file does not say (upstream files do not): taken from the policy versions. */
  coworldId: string | null;
  createdAt: string | null;
  replayUrl: string | null;
  thumbnailUrl: string | null;
  primaryPolicyVersionId: string | null;
  attributes: Record<string, unknown> | null;
  evalTaskId: string | null;
  tags: Record<string, string>;
  participants: UploadedParticipant[];
}

/** What the reader may use: DuckDB's memory and threads (the caller also bounds its time). */
export interface ReaderLimits {
  memoryLimit: string;
  threads: number;
}

export const DEFAULT_READER_LIMITS: ReaderLimits = { memoryLimit: "1GB", threads: 1 };

export const invalidUpload = (message: string) => new ServiceError(400, "invalid_upload", message);

// DuckDB's value classes (timestamps, decimals, lists) carry their own toString.
// eslint-disable-next-line @typescript-eslint/no-base-to-string
const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));

/**
 * DuckDB's own settings for an untrusted database file: no file, network or extension access
 * (`read_text`, `glob`, `ATTACH`, `INSTALL` fail), and no way for a query to turn them back on.
 */
export function lockedConfig(limits: ReaderLimits): Record<string, string> {
  return {
    access_mode: "READ_ONLY",
    enable_external_access: "false",
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
    allow_community_extensions: "false",
    allow_unsigned_extensions: "false",
    memory_limit: limits.memoryLimit,
    threads: String(limits.threads),
    lock_configuration: "true",
  };
}

/**
 * Refuses a file whose needed names are not plain tables, and any file that defines macros: a
 * view runs the author's query, and a macro shadows the built-in functions our queries call
 * (even the catalog functions, so those are named with their `system.main.` prefix).
 */
async function checkObjects(conn: DuckDBConnection): Promise<void> {
  const macros = (
    await conn.runAndReadAll(
      "select function_name, function_type from system.main.duckdb_functions() where not internal and database_name = current_database() order by 1",
    )
  ).getRows();
  const macro = macros[0];
  if (macro)
    throw invalidUpload(
      `the DuckDB file defines ${text(macro[1]).replace("_", " ")} ${text(macro[0])}: a bulk-upload file holds tables only`,
    );
  const needed = [...Object.keys(REQUIRED_COLUMNS), ...Object.keys(OPTIONAL_TABLES)];
  const inList = needed.map((n) => `'${n}'`).join(", ");
  const views = (
    await conn.runAndReadAll(
      `select view_name from system.main.duckdb_views() where not internal and database_name = current_database() and view_name in (${inList}) order by 1`,
    )
  ).getRows();
  const view = views[0];
  if (view)
    throw invalidUpload(
      `${text(view[0])} is a view in the DuckDB file: a bulk-upload file holds tables only`,
    );
  const generated = (
    await conn.runAndReadAll(
      `select table_name, column_name from system.main.duckdb_columns() where database_name = current_database() and table_name in (${inList}) and column_default is not null order by 1, 2`,
    )
  ).getRows();
  const computed = generated[0];
  if (computed)
    throw invalidUpload(
      `column ${text(computed[0])}.${text(computed[1])} of the DuckDB file is computed (a default or generated value): a bulk-upload file holds plain values only`,
    );
}

export async function readEpisodeFile(
  path: string,
  limits: ReaderLimits = DEFAULT_READER_LIMITS,
): Promise<UploadedEpisode[]> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, lockedConfig(limits));
  } catch (error) {
    throw invalidUpload(
      `the uploaded file is not a DuckDB database (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
    );
  }
  const conn = await instance.connect();
  try {
    await checkObjects(conn);
    // Base tables of the main schema only: a view or a table elsewhere does not count.
    const columns = (
      await conn.runAndReadAll(
        "select c.table_name, c.column_name from system.main.duckdb_columns() c join system.main.duckdb_tables() t on t.table_oid = c.table_oid where t.database_name = current_database() and t.schema_name = 'main'",
      )
    ).getRowObjectsJS();
    const have = new Map<string, Set<string>>();
    for (const c of columns) {
      const set = have.get(text(c.table_name)) ?? new Set<string>();
      set.add(text(c.column_name));
      have.set(text(c.table_name), set);
    }
    const missing: string[] = [];
    const need = (table: string, cols: string[]) => {
      const found = have.get(table);
      if (!found) missing.push(`table ${table}`);
      else for (const col of cols) if (!found.has(col)) missing.push(`column ${table}.${col}`);
    };
    for (const [table, cols] of Object.entries(REQUIRED_COLUMNS)) need(table, cols);
    for (const [table, cols] of Object.entries(OPTIONAL_TABLES))
      if (have.has(table)) need(table, cols);
    if (missing.length) throw invalidUpload(`the DuckDB file lacks ${missing.join(", ")}`);
    const episodeCols = have.get("episodes") ?? new Set<string>();
    const col = (name: EpisodeColumn) =>
      episodeCols.has(name) ? `cast(e.${name} as varchar)` : "null";
    const hasPolicyMetrics = have.has("episode_policy_metrics");

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
    if (episodeCols.has("primary_pv_id"))
      checks.push([
        `select cast(e.primary_pv_id as varchar) || ' of episode ' || cast(e.id as varchar) from episodes e where e.primary_pv_id is not null and not exists (select 1 from episode_agent_policies s where cast(s.episode_id as varchar) = cast(e.id as varchar) and cast(s.policy_version_id as varchar) = cast(e.primary_pv_id as varchar))`,
        (which) => `episodes.primary_pv_id ${which} is not a policy version seated in that episode`,
      ]);
    if (episodeCols.has("attributes"))
      checks.push([
        `select cast(id as varchar) from episodes where attributes is not null and (not json_valid(cast(attributes as varchar)) or json_type(cast(attributes as varchar)) <> 'OBJECT')`,
        (id) => `episodes.attributes of episode ${id} is not a JSON object`,
      ]);
    if (hasPolicyMetrics)
      checks.push([
        `select cast(m.policy_version_id as varchar) || ' of episode ' || cast(m.episode_id as varchar) from episode_policy_metrics m anti join episode_agent_policies s on cast(s.episode_id as varchar) = cast(m.episode_id as varchar) and cast(s.policy_version_id as varchar) = cast(m.policy_version_id as varchar)`,
        (which) =>
          `episode_policy_metrics has policy version ${which}, which episode_agent_policies does not seat`,
      ]);
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
        ), policy_metrics as (
          ${
            hasPolicyMetrics
              ? "select cast(episode_id as varchar) as eid, cast(policy_version_id as varchar) as pv, json_group_object(cast(metric as varchar), v) as metrics from (select episode_id, policy_version_id, metric, sum(cast(value as double)) as v from episode_policy_metrics group by all) group by all"
              : "select null::varchar as eid, null::varchar as pv, null::json as metrics where false"
          }
        ), by_episode as (
          select p.eid, to_json(list(json_object('policyVersionId', p.pv, 'score', p.score, 'agents', p.agents, 'metrics', json(coalesce(m.metrics, '{}'))) order by p.first_aid)) as participants
          from participants p left join policy_metrics m on m.eid = p.eid and m.pv = p.pv group by p.eid
        ), tags as (
          select cast(episode_id as varchar) as eid, json_group_object(cast(key as varchar), cast(value as varchar)) as tags from episode_tags group by all
        )
        select cast(e.id as varchar), ${col("coworld_id")}, ${col("created_at")}, ${col("replay_url")}, ${col("thumbnail_url")}, ${col("primary_pv_id")}, ${col("attributes")}, ${col("eval_task_id")}, p.participants, t.tags
        from episodes e join by_episode p on p.eid = cast(e.id as varchar) left join tags t on t.eid = cast(e.id as varchar)
        order by 1`)
    ).getRows();
    const out: UploadedEpisode[] = new Array<UploadedEpisode>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [
        id,
        coworldId,
        created,
        replay,
        thumbnail,
        primary,
        attributes,
        evalTask,
        participants,
        tags,
      ] = rows[i] ?? [];
      const coworld = textOrNull(coworldId);
      out[i] = {
        sourceId: text(id),
        coworldId: coworld === "" ? null : coworld,
        createdAt: textOrNull(created),
        replayUrl: textOrNull(replay),
        thumbnailUrl: textOrNull(thumbnail),
        primaryPolicyVersionId: textOrNull(primary),
        attributes:
          attributes === null || attributes === undefined
            ? null
            : (JSON.parse(text(attributes)) as Record<string, unknown>),
        evalTaskId: textOrNull(evalTask),
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

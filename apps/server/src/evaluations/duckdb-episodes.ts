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

const text = (v: unknown): string => (v === null || v === undefined ? "" : String(v));

export async function readEpisodeFile(path: string): Promise<UploadedEpisode[]> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
  } catch (error) {
    throw invalidUpload(`the uploaded file is not a DuckDB database (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`);
  }
  const conn = await instance.connect();
  try {
    const columns = (await conn.runAndReadAll("select table_name, column_name from information_schema.columns")).getRowObjectsJS();
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
    const createdAt = episodeCols.has("created_at") ? "cast(created_at as varchar)" : "null";
    const replayUrl = episodeCols.has("replay_url") ? "cast(replay_url as varchar)" : "null";

    const episodes = (await conn.runAndReadAll(`select cast(id as varchar) as id, cast(coworld_id as varchar) as coworld_id, ${createdAt} as created_at, ${replayUrl} as replay_url from episodes order by id`)).getRowObjectsJS();
    const byId = new Map<string, UploadedEpisode>();
    for (const e of episodes) {
      const id = text(e.id);
      if (!id) throw invalidUpload("episodes.id is empty in a row");
      if (byId.has(id)) throw invalidUpload(`episodes.id ${id} appears twice`);
      if (!e.coworld_id) throw invalidUpload(`episodes.coworld_id is empty for episode ${id}`);
      byId.set(id, { sourceId: id, coworldId: text(e.coworld_id), createdAt: e.created_at === null ? null : text(e.created_at), replayUrl: e.replay_url === null ? null : text(e.replay_url), tags: {}, participants: [] });
    }
    const seats = (
      await conn.runAndReadAll(
        `select cast(episode_id as varchar) as episode_id, cast(agent_id as integer) as agent_id, cast(policy_version_id as varchar) as policy_version_id from episode_agent_policies order by episode_id, agent_id`,
      )
    ).getRowObjectsJS();
    const agentsOf = new Map<string, Map<number, UploadedParticipant["agents"][number]>>();
    for (const s of seats) {
      const episode = byId.get(text(s.episode_id));
      if (!episode) throw invalidUpload(`episode_agent_policies names episode ${text(s.episode_id)}, which is not in episodes`);
      const pv = text(s.policy_version_id);
      let participant = episode.participants.find((p) => p.policyVersionId === pv);
      if (!participant) {
        participant = { policyVersionId: pv, score: 0, agents: [] };
        episode.participants.push(participant);
      }
      const agent = { agent_id: Number(s.agent_id), reward: 0, metrics: {} };
      participant.agents.push(agent);
      const agents = agentsOf.get(episode.sourceId) ?? new Map();
      agents.set(agent.agent_id, agent);
      agentsOf.set(episode.sourceId, agents);
    }
    const metrics = (
      await conn.runAndReadAll(`select cast(episode_id as varchar) as episode_id, cast(agent_id as integer) as agent_id, cast(metric as varchar) as metric, cast(value as double) as value from episode_agent_metrics`)
    ).getRowObjectsJS();
    for (const m of metrics) {
      const agent = agentsOf.get(text(m.episode_id))?.get(Number(m.agent_id));
      if (!agent) throw invalidUpload(`episode_agent_metrics has agent ${text(m.agent_id)} of episode ${text(m.episode_id)}, which episode_agent_policies does not seat`);
      const value = Number(m.value);
      const name = text(m.metric);
      agent.metrics[name] = (agent.metrics[name] ?? 0) + value;
      if (name === "reward") agent.reward += value;
    }
    const tags = (await conn.runAndReadAll(`select cast(episode_id as varchar) as episode_id, cast(key as varchar) as key, cast(value as varchar) as value from episode_tags`)).getRowObjectsJS();
    for (const t of tags) {
      const episode = byId.get(text(t.episode_id));
      if (!episode) throw invalidUpload(`episode_tags names episode ${text(t.episode_id)}, which is not in episodes`);
      episode.tags[text(t.key)] = text(t.value);
    }
    for (const episode of byId.values()) {
      if (episode.participants.length === 0) throw invalidUpload(`episode ${episode.sourceId} has no rows in episode_agent_policies`);
      for (const p of episode.participants) p.score = p.agents.reduce((sum, a) => sum + a.reward, 0);
    }
    return [...byId.values()];
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw invalidUpload(`the DuckDB file could not be read: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

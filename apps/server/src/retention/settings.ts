// The retention policy's settings, from the environment (README "Configuration").
import type { Env } from "../shared/environment.ts";

export interface RetentionSettings {
  /**
   * League-round episodes per division whose files are kept, newest first (never fewer than the
   * web view lists: `home/listed.ts`); null keeps all.
   */
  keepRoundEpisodes: number | null;
  /** How often the compaction runs. */
  intervalMs: number;
  /**
   * A blob no row names is deleted only once it is this old: an upload's bytes land before the
   * row that names them, and a sweep must not take them in between.
   */
  blobGraceMs: number;
  /**
   * How long a finished commissioner job (with its log) is kept after it ended; null keeps all.
   * Never less than a session's life (expire-commissioner-jobs.ts).
   */
  commissionerJobsMs: number | null;
}

export const DEFAULT_RETENTION: RetentionSettings = {
  keepRoundEpisodes: 100,
  intervalMs: 5 * 60_000,
  blobGraceMs: 60 * 60_000,
  commissionerJobsMs: 7 * 24 * 60 * 60_000,
};

function count(env: Env, name: string): number | null | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  if (text === "all") return null;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(
      `${name} must be a whole number of episodes (0 or more) or "all", not ${JSON.stringify(text)}`,
    );
  return value;
}

function ms(env: Env, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number of milliseconds, not ${JSON.stringify(text)}`);
  return value;
}

/** A number of milliseconds, or "all" (keep everything: null). */
function age(env: Env, name: string): number | null | undefined {
  return env[name]?.trim() === "all" ? null : ms(env, name);
}

/**
 * GAUNTLET_RETENTION_EPISODES, GAUNTLET_RETENTION_INTERVAL_MS, GAUNTLET_RETENTION_BLOB_GRACE_MS,
 * GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS.
 */
export function retentionSettingsFrom(env: Env): RetentionSettings {
  const keep = count(env, "GAUNTLET_RETENTION_EPISODES");
  const interval = ms(env, "GAUNTLET_RETENTION_INTERVAL_MS");
  if (interval === 0) throw new Error("GAUNTLET_RETENTION_INTERVAL_MS must be more than 0");
  const jobs = age(env, "GAUNTLET_RETENTION_COMMISSIONER_JOBS_MS");
  return {
    keepRoundEpisodes: keep === undefined ? DEFAULT_RETENTION.keepRoundEpisodes : keep,
    intervalMs: interval ?? DEFAULT_RETENTION.intervalMs,
    blobGraceMs: ms(env, "GAUNTLET_RETENTION_BLOB_GRACE_MS") ?? DEFAULT_RETENTION.blobGraceMs,
    commissionerJobsMs: jobs === undefined ? DEFAULT_RETENTION.commissionerJobsMs : jobs,
  };
}

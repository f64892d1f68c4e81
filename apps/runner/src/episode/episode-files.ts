// The files of one episode in its work directory, and reading what the game wrote there.
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";

import type { ValidateFunction } from "ajv";

import { EpisodeResults, PlayerFailureDeclaration } from "@gauntlet/core";

import { schemaProblems } from "./json-schema.ts";

export const FILE_NAMES = {
  config: "config.json",
  results: "results.json",
  replay: "replay",
  failure: "player_failure.json",
} as const;

const MAX_RESULTS_BYTES = 8 << 20;
const MAX_REPLAY_BYTES = 256 << 20;

export type Read<T> =
  | { found: false }
  | { found: true; ok: true; value: T }
  | { found: true; ok: false; problem: string };

/** Removes what an earlier attempt in the same directory may have left. */
export async function clearOutputs(workDir: string): Promise<void> {
  await Promise.all(
    [FILE_NAMES.results, FILE_NAMES.replay, FILE_NAMES.failure].map((name) =>
      rm(join(workDir, name), { force: true }),
    ),
  );
}

async function size(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function readJson(path: string, maxBytes: number): Promise<Read<unknown>> {
  const bytes = await size(path);
  if (bytes === null) return { found: false };
  if (bytes > maxBytes)
    return {
      found: true,
      ok: false,
      problem: `it is ${bytes} bytes, over the ${maxBytes}-byte limit`,
    };
  try {
    return { found: true, ok: true, value: JSON.parse(await readFile(path, "utf8")) };
  } catch {
    return { found: true, ok: false, problem: "it is not JSON" };
  }
}

export async function readFailure(
  workDir: string,
  slots: number,
): Promise<Read<PlayerFailureDeclaration>> {
  const read = await readJson(join(workDir, FILE_NAMES.failure), MAX_RESULTS_BYTES);
  if (!read.found || !read.ok) return read;
  const parsed = PlayerFailureDeclaration.safeParse(read.value);
  if (!parsed.success)
    return { found: true, ok: false, problem: "it is not {message, failed_policy_index}" };
  if (parsed.data.failed_policy_index >= slots) {
    return {
      found: true,
      ok: false,
      problem: `failed_policy_index ${parsed.data.failed_policy_index} is not one of the ${slots} slots`,
    };
  }
  return { found: true, ok: true, value: parsed.data };
}

export async function readResults(
  workDir: string,
  validate: ValidateFunction,
  slots: number,
): Promise<Read<EpisodeResults>> {
  const read = await readJson(join(workDir, FILE_NAMES.results), MAX_RESULTS_BYTES);
  if (!read.found || !read.ok) return read;
  const problems = schemaProblems(validate, read.value);
  if (problems.length > 0)
    return {
      found: true,
      ok: false,
      problem: `they do not satisfy results_schema: ${problems.slice(0, 5).join("; ")}`,
    };
  const parsed = EpisodeResults.safeParse(read.value);
  if (!parsed.success)
    return { found: true, ok: false, problem: "`scores` is not an array of numbers" };
  if (parsed.data.scores.length !== slots) {
    return {
      found: true,
      ok: false,
      problem: `they hold ${parsed.data.scores.length} scores for ${slots} slots`,
    };
  }
  return { found: true, ok: true, value: parsed.data };
}

/** The replay's bytes, or null when there is none or it is too large to keep. */
export async function readReplay(
  workDir: string,
): Promise<{ replay: Buffer | null; note?: string }> {
  const path = join(workDir, FILE_NAMES.replay);
  const bytes = await size(path);
  if (bytes === null) return { replay: null };
  if (bytes > MAX_REPLAY_BYTES)
    return {
      replay: null,
      note: `the replay is ${bytes} bytes, over the ${MAX_REPLAY_BYTES}-byte limit; dropped`,
    };
  return { replay: await readFile(path) };
}

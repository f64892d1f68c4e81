// The files of one episode in its work directory, and reading what the game wrote there.
import { constants } from "node:fs";
import { open, rm } from "node:fs/promises";
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

type Contents = { found: false } | { found: true; size: number; bytes: Buffer | null };

/**
 * A file the game wrote, read only when it is a regular file in the work directory: the game
 * (in a container, where it writes the work directory) could leave a symbolic link to a file of
 * the runner's host, or a FIFO that never ends; neither is followed. `bytes` is null over `maxBytes`.
 */
export async function readOutput(path: string, maxBytes: number): Promise<Contents> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    // Missing, or a symbolic link (ELOOP): either way, nothing the game wrote.
    return { found: false };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { found: false };
    if (info.size > maxBytes) return { found: true, size: info.size, bytes: null };
    const bytes = await handle.readFile();
    return { found: true, size: bytes.length, bytes: bytes.length > maxBytes ? null : bytes };
  } finally {
    await handle.close();
  }
}

async function readJson(path: string, maxBytes: number): Promise<Read<unknown>> {
  const contents = await readOutput(path, maxBytes);
  if (!contents.found) return { found: false };
  if (contents.bytes === null)
    return {
      found: true,
      ok: false,
      problem: `it is ${contents.size} bytes, over the ${maxBytes}-byte limit`,
    };
  try {
    return { found: true, ok: true, value: JSON.parse(contents.bytes.toString("utf8")) };
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
  const contents = await readOutput(join(workDir, FILE_NAMES.replay), MAX_REPLAY_BYTES);
  if (!contents.found) return { replay: null };
  if (contents.bytes === null)
    return {
      replay: null,
      note: `the replay is ${contents.size} bytes, over the ${MAX_REPLAY_BYTES}-byte limit; dropped`,
    };
  return { replay: contents.bytes };
}

// gauntlet eval get|episodes|cancel ID: the verbs on one evaluation, which parse alike.
import type { Command } from "commander";

import { checkId } from "../../context.ts";
import type { Deps, Factory } from "../../factory.ts";
import { writeJson } from "../../output.ts";
import { mineOf } from "../episode/seats-view.ts";
import { idVerbCommand } from "../id-verb.ts";
import { writeEpisodes, writeRecord, writeRequest } from "./view.ts";

export interface OneOptions {
  requestId: string;
  json: boolean;
}

type Run = (options: OneOptions, deps: Deps) => Promise<void>;

export const runGet: Run = async (options, { io, client }) => {
  const r = await client.experienceRequests.get({ experience_request_id: options.requestId });
  if (options.json) return writeJson(io, r);
  writeRequest(io, r);
  writeEpisodes(io, r.episodes);
  writeRecord(io, r.episodes, await mineOf(client));
};

export const runEpisodes: Run = async (options, { io, client }) => {
  const episodes = await client.experienceRequests.episodes({
    experience_request_id: options.requestId,
  });
  if (options.json) return writeJson(io, episodes);
  writeEpisodes(io, episodes);
};

export const runCancel: Run = async (options, { io, client }) => {
  const r = await client.experienceRequests.cancel({ experience_request_id: options.requestId });
  if (options.json) return writeJson(io, r);
  writeRequest(io, r);
};

const VERBS = {
  get: ["Show an evaluation, its counts by state and its episodes", runGet],
  episodes: [
    "List an evaluation's episodes (download one with `gauntlet episode bundle`)",
    runEpisodes,
  ],
  cancel: ["Cancel an evaluation: queued episodes are withdrawn, running ones finish", runCancel],
} as const satisfies Record<string, readonly [string, Run]>;

export function oneCommand(
  parent: Command,
  factory: Factory,
  verb: keyof typeof VERBS,
  run: Run = VERBS[verb][1],
): Command {
  return idVerbCommand(parent, factory, run, {
    name: verb,
    description: VERBS[verb][0],
    argument: ["<id>", "evaluation id (xreq_…)"],
    options: async (id) => ({ requestId: await checkId("experienceRequest", id, "ID") }),
  });
}

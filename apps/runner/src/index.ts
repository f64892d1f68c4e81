export { runEpisode } from "./episode/run-episode.ts";
export { joinRunnerGroup } from "./episode/runtimes/cpu-share.ts";
export {
  EpisodeInputError,
  type EpisodeEvent,
  type EpisodeOutcome,
  type EpisodePlayer,
  type RunEpisodeInput,
} from "./episode/types.ts";
export {
  startRunner,
  RunnerRefusedError,
  type Runner,
  type RunnerOptions,
} from "./worker/lease-loop.ts";
export { queueOver, type Queue } from "./worker/queue.ts";
export { ServerPool } from "./worker/servers.ts";
export { createLog, type RunnerLog } from "./worker/log.ts";
export { Redactor } from "./worker/redactor.ts";

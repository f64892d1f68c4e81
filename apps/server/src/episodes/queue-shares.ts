// The work queue's shares: which class of work a job belongs to, each class's weight, and the
// cap on one user's evaluation jobs running at once (docs/deploy.md, "The work queue's shares").
import type { Env } from "../shared/environment.ts";

/** The classes of work that share the runners. */
export const SHARE_CLASSES = ["league", "play", "evaluation", "certification"] as const;
export type ShareClass = (typeof SHARE_CLASSES)[number];

export interface QueueShares {
  /** A class's share of the runners is its weight over the weights of the classes with work. */
  weights: Record<ShareClass, number>;
  /** The most evaluation jobs of one requester leased at once. */
  userCap: number;
  /** The most play jobs (play sessions, hosted games, lobbies' games) of one requester at once. */
  playUserCap: number;
}

// Handlers read the shares the server was started with as a setting (http/handler.ts).
declare module "../http/handler.ts" {
  interface HandlerSettings {
    readonly queueShares: QueueShares;
  }
}

export const DEFAULT_QUEUE_SHARES: QueueShares = {
  weights: { league: 4, play: 2, evaluation: 2, certification: 1 },
  userCap: 4,
  playUserCap: 2,
};

const WEIGHT_ENV: Record<ShareClass, string> = {
  league: "GAUNTLET_QUEUE_WEIGHT_LEAGUE",
  play: "GAUNTLET_QUEUE_WEIGHT_PLAY",
  evaluation: "GAUNTLET_QUEUE_WEIGHT_EVALUATION",
  certification: "GAUNTLET_QUEUE_WEIGHT_CERTIFICATION",
};

function wholeFromEnv(env: Env, name: string, min: number, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > 1000)
    throw new Error(
      `${name} must be a whole number from ${min} to 1000, not ${JSON.stringify(text)}`,
    );
  return value;
}

/** GAUNTLET_QUEUE_WEIGHT_{LEAGUE,PLAY,EVALUATION,CERTIFICATION}, GAUNTLET_QUEUE_USER_CAP and
 * GAUNTLET_QUEUE_PLAY_USER_CAP. */
export function queueSharesFrom(env: Env): QueueShares {
  const weights = { ...DEFAULT_QUEUE_SHARES.weights };
  for (const c of SHARE_CLASSES) weights[c] = wholeFromEnv(env, WEIGHT_ENV[c], 1, weights[c]);
  return {
    weights,
    userCap: wholeFromEnv(env, "GAUNTLET_QUEUE_USER_CAP", 1, DEFAULT_QUEUE_SHARES.userCap),
    playUserCap: wholeFromEnv(
      env,
      "GAUNTLET_QUEUE_PLAY_USER_CAP",
      1,
      DEFAULT_QUEUE_SHARES.playUserCap,
    ),
  };
}

/** The class of an episode's job, from its purpose: every other purpose is someone's evaluation. */
export function shareClassOf(purpose: string): ShareClass {
  if (purpose === "round") return "league";
  if (purpose === "play") return "play";
  if (purpose === "certification") return "certification";
  return "evaluation";
}

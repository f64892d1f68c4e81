// An episode's replay address as answered: the domain gives its path (episodes.ts), the routes
// make it absolute with the public base URL (http/public-address.ts), the one place that decides
// where the server's addresses point.
import type { EpisodeRequest } from "@gauntlet/core";

import { absoluteTo } from "../http/public-address.ts";

/** The episode with its replay path made absolute under `base`. */
export function withAbsoluteReplay(base: string, episode: EpisodeRequest): EpisodeRequest {
  return episode.replay_url === null
    ? episode
    : { ...episode, replay_url: absoluteTo(base, episode.replay_url) };
}

/** A page of episodes (`{entries, …}`) with every replay path made absolute under `base`. */
export function withAbsoluteReplays<Page extends { entries: EpisodeRequest[] }>(
  base: string,
  page: Page,
): Page {
  return { ...page, entries: page.entries.map((e) => withAbsoluteReplay(base, e)) };
}

// The server's own read-only web view at `/` (issue 31, item 8): the page, its script, and the
// one link a page can follow to an episode's replay without a token.
import { z } from "zod";

import { EpisodeRequestId } from "../../models/episode.ts";
import { defineOperation } from "../operation.ts";

export const homePageOperations = {
  getHomePage: defineOperation({
    id: "getHomePage",
    method: "GET",
    path: "/",
    tag: "Service",
    summary: "The web view: leagues, standings, recent rounds and episodes (read-only)",
    description:
      "An HTML page served by the server itself (no outside calls). Its script reads the public API as an anonymous caller, so it shows what anyone may see, and refreshes when the competition feed moves.",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "html",
  }),
  getHomePageScript: defineOperation({
    id: "getHomePageScript",
    method: "GET",
    path: "/home.js",
    tag: "Service",
    summary: "The web view's script",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "javascript",
  }),
  openEpisodeReplay: defineOperation({
    id: "openEpisodeReplay",
    method: "GET",
    path: "/v2/episode-requests/{episode_request_id}/replay-viewer",
    tag: "Episodes",
    summary: "Open an episode's replay in its coworld's replay viewer (a link for pages)",
    description:
      "Redirects (302) to the coworld version's `replay_viewer` with a 15-minute capability address for this replay in its fragment, as `POST /v2/coworlds/replays/session` answers, for anyone who may read the episode (a public league's episodes: anyone). 404 for an episode the caller cannot see; 410 (`artifacts_expired`) when the retention policy removed its replay; 422 naming `path.episode_request_id` when the episode has no replay or its coworld no viewer. A browser (`Accept` with `text/html` first) gets each of these as a small HTML page with the same status, saying why there is no replay (for a 410, when the retention policy removed it) and linking back to the web view; other clients get the JSON error.",
    auth: "optional",
    complexity: 10,
    params: z.object({ episode_request_id: EpisodeRequestId }),
    status: 302,
    // The answer is the redirect; the page it leads to is the coworld's viewer, not ours.
    response: z.string(),
    responseKind: "text",
  }),
} as const;

// The server's own read-only web view at `/` (issue 31, item 8): the page, its script, and the
// one link a page can follow to an episode's replay without a token.
import { z } from "zod";

import { EpisodeRequestId } from "../../models/episode.ts";
import { defineOperation } from "../operation.ts";

/** A web view page under `/web/…`: each answers the same HTML shell; its script reads the API. */
function webPage<const I extends string, const P extends string>(id: I, path: P, summary: string) {
  return defineOperation({
    id,
    method: "GET",
    path,
    tag: "Service",
    summary: `The web view: ${summary}`,
    description:
      "An HTML page served by the server itself; its script reads the API as the visitor (the API's access rules decide what it shows) and follows the live events.",
    auth: "none",
    access: "public",
    complexity: 1,
    params: z.object({ id: z.string().min(1).max(200) }),
    status: 200,
    response: z.string(),
    responseKind: "html",
  });
}

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
  getWebLeaguePage: webPage("getWebLeaguePage", "/web/leagues/{id}", "a league and its divisions"),
  getWebDivisionPage: webPage(
    "getWebDivisionPage",
    "/web/divisions/{id}",
    "a division's standings with their certainty, rating history, pairwise matrix and rounds",
  ),
  getWebRoundPage: webPage("getWebRoundPage", "/web/rounds/{id}", "a round's episodes and results"),
  getWebEpisodePage: webPage(
    "getWebEpisodePage",
    "/web/episodes/{id}",
    "an episode's players, scores, status and replay",
  ),
  getWebPlayerPage: webPage(
    "getWebPlayerPage",
    "/web/players/{id}",
    "a player's versions, leagues, rating history and recent episodes",
  ),
  getWebPolicyVersionPage: webPage(
    "getWebPolicyVersionPage",
    "/web/policy-versions/{id}",
    "a policy version's leagues and recent episodes",
  ),
  getWebScript: defineOperation({
    id: "getWebScript",
    method: "GET",
    path: "/web.js",
    tag: "Service",
    summary: "The web view pages' script (bundled from TypeScript by the server at start)",
    auth: "none",
    access: "public",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "javascript",
  }),
  openObservatoryLink: defineOperation({
    id: "openObservatoryLink",
    method: "GET",
    path: "/v2",
    tag: "Service",
    summary:
      "The hosted service's page links (`/observatory/v2?tab=…&detail=…`), redirected to the matching web view page",
    description:
      "The clients print links such as `/observatory/v2?tab=leagues&detail=league:{id}` and `?tab=uploads&detail=policy-version:{id}`. Redirects (302) to the web view's page for the `detail` (league, division, round, episode, player, policy version), else to the list the `tab` names, else to the home page.",
    auth: "none",
    access: "public",
    complexity: 1,
    query: z.object({
      tab: z.string().max(100).optional(),
      detail: z.string().max(300).optional(),
    }),
    status: 302,
    response: z.string(),
    responseKind: "text",
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

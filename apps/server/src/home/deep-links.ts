// The hosted service's page links, which its clients print (coworld's `submit` prints
// `/observatory/v2?tab=uploads&detail=policy-version:{id}`, its league seeding
// `?tab=leagues&detail=league:{id}`): the web view page for the `detail`, else the home page.
const DETAIL_PAGES: Record<string, string> = {
  league: "leagues",
  division: "divisions",
  round: "rounds",
  episode: "episodes",
  "episode-request": "episodes",
  player: "players",
  "policy-version": "policy-versions",
};

/** The page path (under the base path) a hosted-service link stands for. */
export function webPathOf(query: {
  tab?: string | undefined;
  detail?: string | undefined;
}): string {
  const detail = query.detail ?? "";
  const colon = detail.indexOf(":");
  const kind = detail.slice(0, colon);
  // Own keys only: `constructor:x` names no page.
  const page = colon > 0 && Object.hasOwn(DETAIL_PAGES, kind) ? DETAIL_PAGES[kind] : undefined;
  const id = detail.slice(colon + 1);
  if (page && id) return `/web/${page}/${encodeURIComponent(id)}`;
  return "/";
}

// Every name links to its page: the addresses of the web view's pages, under the base path the
// page was served at (the root, or the data host's prefix).
import { base, q } from "./api.ts";
import { el } from "./dom.ts";

export const href = {
  home: () => `${base}/`,
  league: (id: string) => `${base}/web/leagues/${q(id)}`,
  division: (id: string) => `${base}/web/divisions/${q(id)}`,
  round: (id: string) => `${base}/web/rounds/${q(id)}`,
  episode: (id: string) => `${base}/web/episodes/${q(id)}`,
  player: (id: string) => `${base}/web/players/${q(id)}`,
  policyVersion: (id: string) => `${base}/web/policy-versions/${q(id)}`,
  replay: (episodeId: string) => `${base}/v2/episode-requests/${q(episodeId)}/replay-viewer`,
};

export const link = (url: string, label: string) => el("a", { href: url, text: label });

/** A link when there is somewhere to go, else the label as text. */
export function maybeLink(url: string | null, label: string): Node {
  return url ? link(url, label) : document.createTextNode(label);
}

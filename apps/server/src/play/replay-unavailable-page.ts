// The page a browser gets when a replay link (`…/replay-viewer`, the web view's `replay`) leads
// to no replay: removed by the retention policy, an episode it may not see, or one with no replay
// or no viewer. It says which, and links back to the web view; never a JSON body in a browser.
import { escapeHtml, page } from "../http/html.ts";

export type ReplayUnavailable =
  | { kind: "expired"; expiredAt: string | null }
  | { kind: "not_found" }
  | { kind: "no_replay"; reason: string };

/** `2026-11-28 14:06 UTC`: a moment a reader takes in at a glance, whatever their zone. */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** `home` is the web view's address on this host (`/`, or the data host's prefix). */
export function replayUnavailablePage(
  episodeId: string,
  why: ReplayUnavailable,
  home: string,
): string {
  const episode = `<code>${escapeHtml(episodeId)}</code>`;
  const back = `<p><a href="${escapeHtml(home)}">Back to the leagues</a></p>`;
  switch (why.kind) {
    case "expired":
      return page(
        "Replay removed · Gauntlet",
        `<h1>This replay was removed</h1>
<p>The replay of episode ${episode} was removed by the server's retention policy${
          why.expiredAt === null
            ? ""
            : ` on <time datetime="${escapeHtml(why.expiredAt)}">${escapeHtml(when(why.expiredAt))}</time>`
        }. The policy keeps the files of each division's newest round episodes (at least those the leagues page lists) and of every episode someone asked for; the episode's results and scores are kept.</p>
${back}`,
      );
    case "not_found":
      return page(
        "No such episode · Gauntlet",
        `<h1>No such episode</h1>
<p>There is no episode ${episode} here that you may see.</p>
${back}`,
      );
    case "no_replay":
      return page(
        "No replay · Gauntlet",
        `<h1>No replay to show</h1>
<p>${escapeHtml(why.reason)}</p>
${back}`,
      );
  }
}

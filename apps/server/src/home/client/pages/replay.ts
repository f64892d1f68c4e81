// An episode's replay in the page. The viewer's address comes from the API as the visitor:
// signed in, a replay session (`POST /v2/coworlds/replays/session`, so a private league's replay
// plays for those who may read it); anonymous, the replay link, asked first without following it
// so that a replay the server cannot show is said in words instead of a broken frame.
import type { EpisodeRequest, ReplaySessionResponse } from "@gauntlet/core";

import { post, Refused, session } from "../api.ts";
import { el, muted } from "../dom.ts";
import { href, link } from "../links.ts";

const ENDED = new Set(["completed", "failed", "cancelled"]);
/** One viewer address per episode and page: a redraw does not open a second session. */
const opened = new Map<string, Promise<string>>();

async function viewerOf(e: EpisodeRequest): Promise<string> {
  if ((await session).signed_in) {
    const s = await post<ReplaySessionResponse>("/v2/coworlds/replays/session", {
      coworld_id: e.coworld_id,
      episode_id: e.id,
      replay_uri: new URL(e.replay_url ?? "", location.href).href,
    });
    return s.viewer_url;
  }
  const r = await fetch(href.replay(e.id), {
    headers: { accept: "application/json" },
    credentials: "omit",
    redirect: "manual",
  });
  if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) return href.replay(e.id);
  let why = `the replay link answered ${r.status}`;
  try {
    const body = (await r.json()) as { detail?: { message?: string } | string };
    const d = body.detail;
    why = typeof d === "string" ? d : (d?.message ?? why);
  } catch {
    // not JSON
  }
  throw new Refused(r.status, why);
}

export async function replay(e: EpisodeRequest): Promise<HTMLElement> {
  if (e.artifacts_expired_at)
    return muted(
      `This replay was removed by the server's retention policy on ${e.artifacts_expired_at.slice(0, 10)}.`,
    );
  if (!e.replay_url)
    return muted(
      ENDED.has(e.status)
        ? "This episode left no replay."
        : "The replay comes when the episode ends.",
    );
  let viewer = opened.get(e.id);
  if (!viewer) {
    viewer = viewerOf(e);
    opened.set(e.id, viewer);
  }
  try {
    const src = await viewer;
    return el("div", null, [
      el("iframe", {
        class: "replay",
        src,
        title: "replay",
        sandbox: "allow-scripts",
        referrerpolicy: "no-referrer",
      }),
      el("p", null, [link(src, "open the replay on its own page")]),
    ]);
  } catch (error) {
    opened.delete(e.id);
    return muted(`No replay to show: ${error instanceof Refused ? error.detail : String(error)}`);
  }
}

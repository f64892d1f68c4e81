// The home page's part for a signed-in visitor: their own evaluations (experience requests),
// newest first, as the API lists them for the caller.
import type { ExperienceRequestPage } from "@gauntlet/core";

import { get, session } from "../api.ts";
import { ago, el, muted, table } from "../dom.ts";
import { href, link } from "../links.ts";

export async function evaluationsSection(): Promise<HTMLElement | null> {
  const s = await session;
  if (!s.signed_in) return null;
  const page = await get<ExperienceRequestPage>("/v2/experience-requests?mine=true&limit=10");
  return el("section", { class: "evaluations" }, [
    el("h2", { text: "Your evaluations" }),
    page.entries.length === 0
      ? muted("None yet: `gauntlet evaluate` starts one.")
      : table(
          ["evaluation", "coworld", "league", "status", "episodes done", "when"],
          page.entries.map((x) => [
            x.id,
            `${x.coworld_name} ${x.coworld_version}`,
            x.league_id ? link(href.league(x.league_id), "league") : "—",
            x.status,
            `${x.completed_count + x.failed_count + x.cancelled_count} / ${x.episode_count}`,
            ago(x.created_at),
          ]),
          [4],
        ),
  ]);
}

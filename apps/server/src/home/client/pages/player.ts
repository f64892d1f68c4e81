// A player: its policies and versions, the leagues it plays in, its rating history in each
// division, and its recent episodes.
import type { EpisodeRequest, PlayerProfile } from "@gauntlet/core";

import { get, q } from "../api.ts";
import { divisionHistory, historyChart } from "../charts.ts";
import { el, muted, table } from "../dom.ts";
import { href, link } from "../links.ts";
import type { Drawn } from "../page.ts";
import { episodesTable } from "../parts.ts";

export async function drawPlayer(id: string): Promise<Drawn> {
  const [profile, episodes] = await Promise.all([
    get<PlayerProfile>(`/v2/players/${q(id)}/profile`),
    get<{ entries: EpisodeRequest[] }>(`/v2/episode-requests?player_id=${q(id)}&limit=10`),
  ]);
  const divisions = new Map(profile.memberships.map((m) => [m.division.id, m]));
  const charts = await Promise.all(
    [...divisions.values()].map(async (m) =>
      el("div", null, [
        el("h4", null, [
          link(href.division(m.division.id), `${m.league.name} · ${m.division.name}`),
        ]),
        historyChart(
          await divisionHistory(m.division.id, profile.id),
          `${profile.display_name} in ${m.division.name}`,
        ),
      ]),
    ),
  );
  return {
    title: profile.display_name,
    crumbs: [link(href.home(), "Leagues")],
    body: [
      el("section", { class: "player-page", "data-player": profile.id }, [
        el("h2", { text: profile.display_name }),
        profile.bio ? muted(profile.bio) : null,
        el("h3", { text: "Policy versions" }),
        profile.policies.length
          ? table(
              ["policy", "version", "uploaded"],
              profile.policies.flatMap((p) =>
                p.versions.map((v) => [
                  p.name,
                  link(href.policyVersion(v.id), `v${v.version}`),
                  v.created_at.slice(0, 10),
                ]),
              ),
            )
          : muted("No policies you may see."),
        el("h3", { text: "Leagues" }),
        profile.memberships.length
          ? table(
              ["league", "division", "version", "status"],
              profile.memberships.map((m) => [
                link(href.league(m.league.id), m.league.name),
                link(href.division(m.division.id), m.division.name),
                link(
                  href.policyVersion(m.policy_version.id),
                  `${m.policy_version.name} v${m.policy_version.version}`,
                ),
                m.status + (m.is_champion ? " · champion" : ""),
              ]),
            )
          : muted("In no league you may see."),
        el("h3", { text: "Rating history" }),
        ...(charts.length ? charts : [muted("No rating history yet.")]),
        el("h3", { text: "Recent episodes" }),
        episodesTable(episodes.entries),
      ]),
    ],
    topics: [...new Set(profile.memberships.map((m) => `league:${m.league.id}`))],
    note: null,
  };
}

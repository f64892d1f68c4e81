// A policy version: whose it is, the leagues it was entered in, and its recent episodes.
import type { EpisodeRequest, LeaguePolicyMembership, PolicyVersion } from "@gauntlet/core";

import { get, q } from "../api.ts";
import { el, facts, muted, table } from "../dom.ts";
import { href, link, maybeLink } from "../links.ts";
import type { Drawn } from "../page.ts";
import { episodesTable } from "../parts.ts";

export async function drawPolicyVersion(id: string): Promise<Drawn> {
  const [pv, memberships, episodes] = await Promise.all([
    get<PolicyVersion>(`/v2/policy-versions/${q(id)}`),
    get<LeaguePolicyMembership[]>(`/v2/league-policy-memberships?policy_version_id=${q(id)}`),
    get<{ entries: EpisodeRequest[] }>(`/v2/episode-requests?policy_version_id=${q(id)}&limit=10`),
  ]);
  const list = memberships;
  const name = `${pv.name} v${pv.version}`;
  return {
    title: name,
    crumbs: [
      link(href.home(), "Leagues"),
      ...(pv.player_id ? [link(href.player(pv.player_id), "player")] : []),
    ],
    body: [
      el("section", { class: "policy-version-page", "data-policy-version": pv.id }, [
        el("h2", { text: name }),
        facts([
          [
            "player",
            maybeLink(pv.player_id ? href.player(pv.player_id) : null, pv.player_id ?? "—"),
          ],
          ["uploaded", pv.created_at],
        ]),
        el("h3", { text: "Leagues" }),
        list.length
          ? table(
              ["league", "division", "status"],
              list.map((m) => [
                link(href.league(m.league.id), m.league.name),
                link(href.division(m.division.id), m.division.name),
                m.status + (m.is_champion ? " · champion" : ""),
              ]),
            )
          : muted("Entered in no league you may see."),
        el("h3", { text: "Recent episodes" }),
        episodesTable(episodes.entries),
      ]),
    ],
    topics: [...new Set(list.map((m) => `league:${m.league.id}`))],
    note: null,
  };
}

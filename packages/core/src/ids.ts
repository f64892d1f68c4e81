// Identifier formats (docs/api.md, "Conventions"): a prefix and a UUID. The patterns are the single
// source for validation on the server and in clients.
import { randomUUID } from "node:crypto";

import { z } from "zod";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

export const idPrefixes = {
  game: "game_",
  mod: "mod_",
  coworld: "cow_",
  image: "img_",
  league: "league_",
  leagueSeed: "lseed_",
  division: "div_",
  round: "round_",
  pool: "pool_",
  submission: "sub_",
  membership: "lpm_",
  episodeRequest: "ereq_",
  experienceRequest: "xreq_",
  stateSnapshot: "snap_",
  tournament: "tour_",
  lobby: "lby_",
  playSession: "ps_",
  playModule: "pmod_",
  player: "ply_",
  reporter: "rptr_",
  reporterRun: "rrun_",
  reporterOutput: "rout_",
  forum: "forum_",
  post: "post_",
  comment: "cmt_",
  wiki: "wiki_",
  wikiPage: "wpg_",
  revision: "rev_",
  user: "user_",
  machine: "mach_",
  token: "tok_",
  credential: "pcred_",
  adminAudit: "audit_",
} as const;

export type IdKind = keyof typeof idPrefixes;

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${idPrefixes[kind]}${UUID}$`);
}

/** A fresh identifier of the given kind, e.g. `league_3f2c…`. */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}${randomUUID()}`;
}

/** The plain UUID form used for policies, policy versions, jobs, episodes and uploads. */
export const uuidPattern = new RegExp(`^${UUID}$`);

/** A zod string schema that enforces the pattern of one identifier kind. */
export function idSchema(kind: IdKind) {
  return z.string().regex(idPattern(kind));
}

export const LeagueId = idSchema("league").meta({
  description: "League identifier",
  example: "league_00000000-0000-4000-8000-000000000000",
});
export const DivisionId = idSchema("division");
export const GameId = idSchema("game");
export const ModId = idSchema("mod");
export const PlayerId = idSchema("player");
export const ReporterRunId = idSchema("reporterRun");
export const TokenId = idSchema("token");
export const Uuid = z.string().regex(uuidPattern);

// Which commissioner runs a league: the coworld's own, when the league's
// `commissioner_config.commissioner_runnable_id` names an entry of its coworld's
// `manifest.commissioner[]`; otherwise the server's built-in one of `commissioner_key`.
import type { Kysely } from "kysely";

import { CoworldManifest, type CoworldManifest as Manifest } from "@gauntlet/core";

import { gameCoworld } from "../../games/games.ts";
import { parseJson } from "../../shared/clock.ts";
import type { CoworldsTable, Database, LeaguesTable } from "../../store/schema.ts";

export type ResolvedCommissioner =
  | {
      kind: "coworld";
      runnableId: string;
      coworld: CoworldsTable;
      manifest: Manifest;
      /** What a migration is recorded against: a new runnable or coworld version migrates again. */
      version: string;
      description: string | null;
    }
  | { kind: "builtin"; key: string }
  | { kind: "invalid"; reason: string };

/** The runnable id a league's config selects, if any. */
export function selectedRunnable(league: Pick<LeaguesTable, "commissioner_config">): string | null {
  const config = parseJson<unknown>(league.commissioner_config);
  if (typeof config !== "object" || config === null) return null;
  const id = (config as Record<string, unknown>).commissioner_runnable_id;
  return typeof id === "string" && id.length > 0 ? id : null;
}

export async function resolveCommissioner(
  db: Kysely<Database>,
  league: LeaguesTable,
): Promise<ResolvedCommissioner> {
  const runnableId = selectedRunnable(league);
  if (runnableId === null) return { kind: "builtin", key: league.commissioner_key };
  const coworld = await gameCoworld(db, league.game_id);
  if (!coworld) return { kind: "invalid", reason: "the league's game has no coworld" };
  const manifest = CoworldManifest.safeParse(parseJson(coworld.manifest));
  if (!manifest.success)
    return { kind: "invalid", reason: `coworld ${coworld.id} has an invalid manifest` };
  const entry = (manifest.data.commissioner ?? []).find((c) => c.id === runnableId);
  if (!entry)
    return {
      kind: "invalid",
      reason: `coworld ${coworld.name} v${coworld.version} has no commissioner runnable ${runnableId}`,
    };
  const description = (entry as Record<string, unknown>).description;
  return {
    kind: "coworld",
    runnableId,
    coworld,
    manifest: manifest.data,
    version: `${runnableId}@${coworld.id}`,
    description: typeof description === "string" ? description : null,
  };
}

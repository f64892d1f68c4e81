// The second demo league: the example coworld's own commissioner (GridRush's king of the hill)
// runs it over the hosted commissioner protocol, in a runner's sandbox like any coworld's — the
// commissioner role seen working on a first start. The demo's A team enters it; the commissioner
// makes its one division, the Hill, and its rounds: the king duels each challenger in turn.
import type { Kysely } from "kysely";

import { CoworldManifest, type Coworld, type League } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { EventBus } from "../events/bus.ts";
import { createLeague, leagueView } from "../leagues/leagues.ts";
import { createSubmission } from "../leagues/submissions.ts";
import type { Database } from "../store/schema.ts";

export const HILL_LEAGUE_NAME = "GridRush king of the hill";
export const HILL_COMMISSIONER = "king-of-the-hill";

/** A version that enters the hill, with the player it plays for. */
export interface HillEntrant {
  policyVersionId: string;
  playerId: string;
}

/**
 * Creates the hill league when the coworld ships the king-of-the-hill commissioner; null when it
 * does not. Its rating rule is Elo (the ratings follow the commissioner's rankings).
 */
export async function createHillLeague(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  coworld: Coworld,
  entrants: readonly HillEntrant[],
): Promise<League | null> {
  const manifest = CoworldManifest.parse(coworld.manifest);
  if (!(manifest.commissioner ?? []).some((c) => c.id === HILL_COMMISSIONER)) return null;
  const league = await createLeague(db, identity, {
    name: HILL_LEAGUE_NAME,
    game_id: coworld.game_id,
    description: `Run by ${coworld.name}'s own commissioner, sandboxed on a runner: each round the king duels every challenger in turn, and a challenger that scores more takes the crown.`,
    commissioner_key: "ladder",
    commissioner_config: { commissioner_runnable_id: HILL_COMMISSIONER },
    settings: { ladder: { ranking: "elo", variant_id: "duel-small" } },
    public: true,
    hidden: false,
    divisions: [{ name: "Hill", level: 1, type: "competition" }],
  });
  for (const entrant of entrants)
    await createSubmission(db, bus, identity, {
      league_id: league.id,
      policy_version_id: entrant.policyVersionId,
      player_id: entrant.playerId,
      auto_champion: "always",
    });
  return league;
}

/** The hill league a first start made; null when there is none. */
export async function findHillLeague(
  db: Kysely<Database>,
  demoUserId: string,
): Promise<League | null> {
  const row = await db
    .selectFrom("leagues")
    .selectAll()
    .where("commissioner_user_id", "=", demoUserId)
    .where("name", "=", HILL_LEAGUE_NAME)
    .executeTakeFirst();
  return row ? leagueView(db, row) : null;
}

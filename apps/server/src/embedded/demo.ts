// First start: a public demo league on the example coworld that plays by itself. A demo account
// owns it and enters the coworld's baseline players twice over (an A and a B team), seeded into
// two divisions; the scheduler and the embedded runner do the rest, so standings move within
// seconds and promotion reshuffles the divisions every few rounds. The baselines are open to
// scrimmage: anyone may play against them.
import type { Kysely } from "kysely";

import { CoworldManifest, type Coworld, type League } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { newPassword } from "../auth/secrets.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { EventBus } from "../events/bus.ts";
import { createPlayer } from "../identity/players.ts";
import { createUser, findUserByEmail } from "../identity/users.ts";
import { createLeague, leagueView } from "../leagues/leagues.ts";
import { createSubmission } from "../leagues/submissions.ts";
import { createPolicyVersion, storeUpload } from "../policies/policies.ts";
import { updatePolicyVersion } from "../policies/version-settings.ts";
import type { Database } from "../store/schema.ts";
import { createHillLeague, findHillLeague, type HillEntrant } from "./demo-hill.ts";

export const DEMO_EMAIL = "demo@localhost";
export const DEMO_LEAGUE_NAME = "GridRush demo league";

/**
 * Fast episodes and a ladder that plays until its ranks are settled: Elo, adaptive seating (the
 * episodes go where the order is least certain), then one promotion on the settled standings,
 * then quiet until a new entrant or champion.
 */
export const DEMO_LADDER = {
  ranking: "elo",
  seating: "adaptive",
  players_per_episode: 2,
  episodes_per_pairing: 1,
  variant_id: "duel-small",
  game_config: { turns: 30 },
  promotion: { promote: 1, relegate: 1, every_rounds: 3 },
};

export interface DemoLeague {
  league: League;
  divisions: { id: string; name: string; level: number }[];
  players: number;
  /** The second demo league, run by the coworld's own commissioner (demo-hill.ts); null without one. */
  hill: League | null;
}

function demoIdentity(user: { id: string; email: string }): AuthenticatedIdentity {
  return {
    kind: "user",
    subjectId: user.id,
    userId: user.id,
    email: user.email,
    adminRole: false,
    elevated: false,
    scopes: ["user"],
    tokenId: "server-demo",
    budget: { key: user.id, kind: "user" },
  };
}

/**
 * Creates the demo league on `coworld` (its game, its bundle, its baseline players) unless the
 * demo account already has one. Returns what it made, or null when there was nothing to do.
 */
export async function createDemoLeague(
  db: Kysely<Database>,
  blobs: BlobStore,
  bus: Pick<EventBus, "publish">,
  coworld: Coworld,
): Promise<DemoLeague | null> {
  const bundleSha = await db
    .selectFrom("coworlds")
    .select("bundle_sha256")
    .where("id", "=", coworld.id)
    .executeTakeFirst();
  const bundle = bundleSha?.bundle_sha256 ? await blobs.get(bundleSha.bundle_sha256) : null;
  if (!bundle) return null;
  const manifest = CoworldManifest.parse(coworld.manifest);
  const baselines = manifest.player.filter((p) => p.run !== undefined);
  if (baselines.length < 2) return null;

  let user = await findUserByEmail(db, DEMO_EMAIL);
  if (
    user &&
    (await db
      .selectFrom("leagues")
      .select("id")
      .where("commissioner_user_id", "=", user.id)
      .executeTakeFirst())
  )
    return null;
  // Nobody signs in as the demo account: its password is thrown away.
  user ??= await createUser(db, { email: DEMO_EMAIL, password: newPassword() });
  const identity = demoIdentity(user);

  // The baselines run from the coworld's own files: its bundle doubles as their policy bundle.
  const upload = await storeUpload(db, blobs, identity, "policy-bundle", bundle);
  const league = await createLeague(db, identity, {
    name: DEMO_LEAGUE_NAME,
    game_id: coworld.game_id,
    description: `Plays by itself: the baseline players of ${coworld.name} in two divisions. Every ${DEMO_LADDER.promotion.every_rounds} Premier rounds, and once more when both divisions have settled, the best of the Challenger division goes up and the last of the Premier goes down.`,
    commissioner_key: "ladder",
    settings: { ladder: DEMO_LADDER },
    public: true,
    hidden: false,
    divisions: [
      { name: "Premier", level: 1, type: "competition" },
      { name: "Challenger", level: 2, type: "competition" },
    ],
  });
  const divisions = await db
    .selectFrom("divisions")
    .select(["id", "name", "level"])
    .where("league_id", "=", league.id)
    .orderBy("level")
    .execute();

  let players = 0;
  const teamA: HillEntrant[] = [];
  for (const [team, division] of divisions.entries()) {
    for (const baseline of baselines) {
      const player = await createPlayer(
        db,
        user.id,
        `${baseline.name} ${String.fromCharCode(65 + team)}`,
      );
      const version = await createPolicyVersion(db, blobs, identity, {
        name: `demo-${baseline.id}`,
        policy_bundle_id: upload.id,
        run: baseline.run,
        player_id: player.id,
      });
      // The coworld's own public players: anyone may play against them (`gauntlet play
      // gridrush --opponent greedy`) or seat them in an evaluation.
      await updatePolicyVersion(db, identity, version.id, { open_to_scrimmage: true });
      await createSubmission(db, bus, identity, {
        league_id: league.id,
        policy_version_id: version.id,
        player_id: player.id,
        auto_champion: "always",
        preferences: { division_id: division.id },
      });
      if (team === 0) teamA.push({ policyVersionId: version.id, playerId: player.id });
      players += 1;
    }
  }
  const hill = await createHillLeague(db, bus, identity, coworld, teamA);
  return { league, divisions, players, hill };
}

/** The demo league a first start made, for a restart's banner; null when there is none. */
export async function findDemoLeague(db: Kysely<Database>): Promise<DemoLeague | null> {
  const user = await findUserByEmail(db, DEMO_EMAIL);
  if (!user) return null;
  const row = await db
    .selectFrom("leagues")
    .selectAll()
    .where("commissioner_user_id", "=", user.id)
    .where("name", "=", DEMO_LEAGUE_NAME)
    .executeTakeFirst();
  if (!row) return null;
  const divisions = await db
    .selectFrom("divisions")
    .select(["id", "name", "level"])
    .where("league_id", "=", row.id)
    .orderBy("level")
    .execute();
  const entered = await db
    .selectFrom("league_submissions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("league_id", "=", row.id)
    .executeTakeFirst();
  return {
    league: await leagueView(db, row),
    divisions,
    players: Number(entered?.n ?? 0),
    hill: await findHillLeague(db, user.id),
  };
}

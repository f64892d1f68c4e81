// trigger-round: the commissioner starts a round now in each competition division (or one),
// whatever the pause and the round interval say; divisions that cannot are reported.
import type { Kysely } from "kysely";

import type { Round, RoundSkip } from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import type { QueueShares } from "../episodes/queue-shares.ts";
import type { EventBus } from "../events/bus.ts";
import { invalidInput } from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { getCommissionedLeagueRow } from "./leagues.ts";
import { startRound } from "./round-start.ts";
import { roundViews } from "./rounds-read.ts";

export async function triggerRound(
  db: Kysely<Database>,
  bus: Pick<EventBus, "publish">,
  identity: AuthenticatedIdentity,
  leagueId: string,
  divisionId: string | undefined,
  shares?: QueueShares,
): Promise<{ rounds: Round[]; skipped: RoundSkip[] }> {
  const league = await getCommissionedLeagueRow(db, identity, leagueId);
  let q = db
    .selectFrom("divisions")
    .select(["id"])
    .where("league_id", "=", league.id)
    .where("archived_at", "is", null)
    .where("type", "=", "competition");
  if (divisionId !== undefined) q = q.where("id", "=", divisionId);
  const divisions = await q.orderBy("level").execute();
  if (divisionId !== undefined && divisions.length === 0) {
    throw invalidInput(
      ["body", "division_id"],
      `division ${divisionId} is not an open competition division of league ${league.id}`,
      "value_error",
      divisionId,
    );
  }
  const started = [];
  const skipped: RoundSkip[] = [];
  for (const division of divisions) {
    const outcome = await startRound(db, bus, division.id, { force: true });
    if (outcome.kind === "started") started.push(outcome.round);
    else
      skipped.push({ division_id: division.id, reason: outcome.reason, message: outcome.message });
  }
  return { rounds: await roundViews(db, started, shares), skipped };
}

// Which runners may run which code. Code is trusted when an admin owns it: the job's coworld (its
// game and bundled players) and every policy in its seats. A person's seat runs no uploaded code
// (the runner relays it). Anything else is a competitor's code and is leased only to a runner
// that says it runs each runnable isolated (`sandbox` or `docker`); a `process` runner — or one
// that does not say — gets trusted jobs only. The server cannot see inside a runner, so this
// rests on the isolation its machine token's lease declares; the runner refuses `process`
// without `--trusted-code`, so a false claim needs a deliberately modified runner.
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";

import type { Isolation } from "@gauntlet/core";

import type { Database } from "../store/schema.ts";

/** Whether a runner leasing with `isolation` may run code no admin owns. */
export function runsUntrustedCode(isolation: Isolation | null): boolean {
  return isolation === "sandbox" || isolation === "docker";
}

/** A condition on `jobs`: every runnable of the job is owned by an admin. */
export function jobCodeTrusted(eb: ExpressionBuilder<Database, "jobs">): Expression<SqlBool> {
  const untrustedCoworld = eb
    .selectFrom("episode_requests as tr_e")
    .innerJoin("coworlds as tr_c", "tr_c.id", "tr_e.coworld_id")
    .innerJoin("users as tr_cu", "tr_cu.id", "tr_c.owner_user_id")
    .select("tr_e.id")
    .whereRef("tr_e.id", "=", "jobs.episode_request_id")
    .where("tr_cu.is_admin", "<>", 1);
  const untrustedPolicy = eb
    .selectFrom("episode_participants as tr_p")
    .innerJoin("policy_versions as tr_v", "tr_v.id", "tr_p.policy_version_id")
    .innerJoin("policies as tr_pol", "tr_pol.id", "tr_v.policy_id")
    .innerJoin("users as tr_pu", "tr_pu.id", "tr_pol.owner_user_id")
    .select("tr_p.position")
    .whereRef("tr_p.episode_request_id", "=", "jobs.episode_request_id")
    .where("tr_pu.is_admin", "<>", 1);
  return eb.and([eb.not(eb.exists(untrustedCoworld)), eb.not(eb.exists(untrustedPolicy))]);
}

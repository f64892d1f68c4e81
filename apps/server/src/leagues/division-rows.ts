// Building division rows from their input, shared by league creation and division replacement.
import type { Transaction } from "kysely";

import { newId, type DivisionInput } from "@gauntlet/core";

import { nowIso } from "../shared/clock.ts";
import { invalidInput } from "../shared/errors.ts";
import type { Database, DivisionsTable } from "../store/schema.ts";

export function rowFromSpec(
  leagueId: string,
  spec: DivisionInput,
  createdAt: string,
): DivisionsTable {
  return {
    id: spec.id ?? newId("division"),
    league_id: leagueId,
    name: spec.name,
    level: spec.level,
    type: spec.type,
    description: spec.description ?? null,
    hidden: spec.hidden ? 1 : 0,
    archived_at: null,
    leaderboard_config: JSON.stringify(spec.leaderboard_config ?? {}),
    round_schedule: JSON.stringify(spec.round_schedule ?? {}),
    notes: spec.notes ?? null,
    commissioner_description: JSON.stringify(spec.commissioner_description ?? {}),
    created_at: createdAt,
  };
}

export function assertUniqueNames(specs: DivisionInput[], loc: (string | number)[]): void {
  const seen = new Map<string, number>();
  specs.forEach((s, i) => {
    const prior = seen.get(s.name);
    if (prior !== undefined)
      throw invalidInput(
        [...loc, i, "name"],
        `division name ${s.name} is used twice (also at ${prior})`,
        "value_error",
        s.name,
      );
    seen.set(s.name, i);
  });
}

export async function insertDivisions(
  trx: Transaction<Database>,
  leagueId: string,
  specs: DivisionInput[],
  loc: (string | number)[],
): Promise<void> {
  assertUniqueNames(specs, loc);
  specs.forEach((s, i) => {
    if (s.id)
      throw invalidInput(
        [...loc, i, "id"],
        "a new league's divisions cannot name an id",
        "value_error",
        s.id,
      );
  });
  const now = nowIso();
  await trx
    .insertInto("divisions")
    .values(specs.map((s) => rowFromSpec(leagueId, s, now)))
    .execute();
}

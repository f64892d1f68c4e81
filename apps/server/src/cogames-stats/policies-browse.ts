// cogames' policy browser (`GET /stats/policies`): policies by name with how many versions the
// caller may see and the newest of them. A policy none of whose versions the caller may see is
// not listed, so browsing tells nothing more than the versions' own visibility does.
import type { Kysely } from "kysely";

import type { PolicyRow } from "@gauntlet/core";

import { visibleVersionIds } from "../access/versions.ts";
import type { Identity } from "../auth/identity.ts";
import { containsPattern } from "../shared/like-pattern.ts";
import type { Database } from "../store/schema.ts";

export async function browsePolicies(
  db: Kysely<Database>,
  identity: Identity,
  filter: {
    name_exact?: string | undefined;
    name_fuzzy?: string | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ entries: PolicyRow[]; total_count: number }> {
  let q = db
    .selectFrom("policies as p")
    .innerJoin("policy_versions as pv", "pv.policy_id", "p.id")
    .where("pv.id", "in", visibleVersionIds(db, identity));
  if (filter.name_exact) q = q.where("p.name", "=", filter.name_exact);
  if (filter.name_fuzzy)
    q = q.where((eb) =>
      eb(eb.fn("lower", ["p.name"]), "like", eb.val(containsPattern(filter.name_fuzzy ?? ""))),
    );
  const grouped = q
    .select((eb) => [
      "p.id",
      "p.owner_user_id",
      "p.name",
      "p.created_at",
      eb.fn.countAll<number | string>().as("version_count"),
      eb.fn.max("pv.version").as("latest_version"),
    ])
    .groupBy(["p.id", "p.owner_user_id", "p.name", "p.created_at"]);
  const total = await db
    .selectFrom(grouped.as("g"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  const rows = await grouped
    .orderBy("p.created_at", "desc")
    .orderBy("p.id")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const latest = rows.length
    ? await db
        .selectFrom("policy_versions")
        .select(["id", "policy_id", "version", "created_at"])
        .where((eb) =>
          eb.or(
            rows.map((r) =>
              eb.and([eb("policy_id", "=", r.id), eb("version", "=", Number(r.latest_version))]),
            ),
          ),
        )
        .execute()
    : [];
  return {
    entries: rows.map((r) => {
      const newest = latest.find((v) => v.policy_id === r.id);
      return {
        id: r.id,
        user_id: r.owner_user_id,
        name: r.name,
        created_at: r.created_at,
        attributes: {},
        version_count: Number(r.version_count),
        latest_version_id: newest?.id ?? null,
        latest_version: newest?.version ?? null,
        latest_version_created_at: newest?.created_at ?? null,
      };
    }),
    total_count: Number(total?.n ?? 0),
  };
}

// Every coworld name gets a forum and a wiki, under one slug free in both, when its first
// version is uploaded (migration 006 gives them to the names uploaded before it).
import type { Kysely } from "kysely";

import { newId } from "@gauntlet/core";

import { slugBase, slugify } from "../shared/slug.ts";
import type { Database } from "../store/schema.ts";

export async function openCoworldSpaces(
  db: Kysely<Database>,
  coworldName: string,
  now: string,
): Promise<void> {
  const existing = await db
    .selectFrom("forums")
    .select("id")
    .where("coworld_name", "=", coworldName)
    .executeTakeFirst();
  if (existing) return;
  const base = slugBase(coworldName);
  const [forums, wikis] = await Promise.all([
    db.selectFrom("forums").select("slug").where("slug", "like", `${base}%`).execute(),
    db.selectFrom("wikis").select("slug").where("slug", "like", `${base}%`).execute(),
  ]);
  const taken = new Set([...forums, ...wikis].map((r) => r.slug));
  const slug = slugify(coworldName, (s) => taken.has(s));
  await db
    .insertInto("forums")
    .values({
      id: newId("forum"),
      slug,
      name: coworldName,
      description: `Strategies, questions and news about ${coworldName}.`,
      kind: "coworld",
      coworld_name: coworldName,
      created_at: now,
    })
    .execute();
  await db
    .insertInto("wikis")
    .values({
      id: newId("wiki"),
      slug,
      name: coworldName,
      coworld_name: coworldName,
      created_at: now,
    })
    .execute();
}

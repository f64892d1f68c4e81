// The forums: the general one first, then one per coworld name.
import type { Kysely } from "kysely";

import type { Forum } from "@gauntlet/core";

import { notFound } from "../shared/errors.ts";
import type { Database, ForumsTable } from "../store/schema.ts";

export async function listForums(db: Kysely<Database>): Promise<Forum[]> {
  const rows = await db
    .selectFrom("forums")
    .selectAll("forums")
    .select((eb) =>
      eb
        .selectFrom("posts")
        .select((e) => e.fn.countAll<number | string>().as("n"))
        .whereRef("posts.forum_id", "=", "forums.id")
        .as("post_count"),
    )
    .orderBy((eb) => eb.case().when("kind", "=", "general").then(0).else(1).end())
    .orderBy("slug")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    kind: r.kind === "general" ? "general" : "coworld",
    coworld_name: r.coworld_name,
    post_count: Number(r.post_count ?? 0),
    created_at: r.created_at,
  }));
}

export async function forumBySlug(db: Kysely<Database>, slug: string): Promise<ForumsTable> {
  const row = await db.selectFrom("forums").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!row) throw notFound("Forum", slug);
  return row;
}

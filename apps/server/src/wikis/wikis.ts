// Wikis, one per coworld name (created with the coworld's forum: forums/coworld-spaces.ts).
import type { Kysely } from "kysely";

import type { Wiki } from "@gauntlet/core";

import { notFound } from "../shared/errors.ts";
import type { Database, WikisTable } from "../store/schema.ts";

export async function listWikis(db: Kysely<Database>): Promise<Wiki[]> {
  const rows = await db
    .selectFrom("wikis")
    .selectAll("wikis")
    .select((eb) =>
      eb
        .selectFrom("wiki_pages")
        .select((e) => e.fn.countAll<number | string>().as("n"))
        .whereRef("wiki_pages.wiki_id", "=", "wikis.id")
        .as("page_count"),
    )
    .orderBy("slug")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    coworld_name: r.coworld_name,
    page_count: Number(r.page_count ?? 0),
    created_at: r.created_at,
  }));
}

export async function wikiBySlug(db: Kysely<Database>, slug: string): Promise<WikisTable> {
  const row = await db.selectFrom("wikis").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!row) throw notFound("Wiki", slug);
  return row;
}

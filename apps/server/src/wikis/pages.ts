// Wiki pages: every edit names the revision it started from and keeps a new revision. The
// page row moves to the new revision only while it still points at that base (a guarded
// update), so of two edits from the same base exactly one wins and the other gets the 409
// `wiki_edit_conflict` with what is there now.
import { sql, type Kysely } from "kysely";

import {
  newId,
  type PutWikiPage,
  type WikiPage,
  type WikiRevision,
  type WikiSearchHit,
} from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { requireWriter } from "../forums/authors.ts";
import { renderMarkdown } from "../http/markdown.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, notFound } from "../shared/errors.ts";
import { containsPattern } from "../shared/like-pattern.ts";
import type { Database, WikiPagesTable } from "../store/schema.ts";
import { wikiBySlug } from "./wikis.ts";

function toPage(row: WikiPagesTable, wikiSlug: string): WikiPage {
  return {
    id: row.id,
    wiki: wikiSlug,
    page: row.name,
    body: row.body,
    body_html: renderMarkdown(row.body),
    revision_id: row.current_revision_id,
    revision_count: Number(row.revision_count),
    updated_by_user_id: row.updated_by_user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function pageRow(
  db: Kysely<Database>,
  wikiId: string,
  name: string,
): Promise<WikiPagesTable | undefined> {
  return db
    .selectFrom("wiki_pages")
    .selectAll()
    .where("wiki_id", "=", wikiId)
    .where("name", "=", name)
    .executeTakeFirst();
}

export async function getWikiPage(
  db: Kysely<Database>,
  slug: string,
  name: string,
): Promise<WikiPage> {
  const wiki = await wikiBySlug(db, slug);
  const row = await pageRow(db, wiki.id, name);
  if (!row) throw notFound("Wiki page", `${slug}/${name}`);
  return toPage(row, wiki.slug);
}

function editConflict(current: WikiPagesTable | undefined) {
  return conflict(
    current
      ? "The page has changed since base_revision_id; merge with current_body and send again with current_revision_id."
      : "The page does not exist yet; create it with base_revision_id null.",
    "wiki_edit_conflict",
    {
      current_revision_id: current?.current_revision_id ?? null,
      current_body: current?.body ?? null,
    },
  );
}

export async function putWikiPage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  slug: string,
  name: string,
  body: PutWikiPage,
): Promise<WikiPage> {
  requireWriter(identity, "Wiki pages");
  const wiki = await wikiBySlug(db, slug);
  const now = nowIso();
  const revisionId = newId("revision");
  const revision = {
    id: revisionId,
    parent_revision_id: body.base_revision_id,
    body: body.body,
    summary: body.summary ?? null,
    author_user_id: identity.userId,
    created_at: now,
  };
  const outcome = await db.transaction().execute(async (trx) => {
    if (body.base_revision_id === null) {
      const row: WikiPagesTable = {
        id: newId("wikiPage"),
        wiki_id: wiki.id,
        name,
        body: body.body,
        current_revision_id: revisionId,
        revision_count: 1,
        updated_by_user_id: identity.userId,
        created_at: now,
        updated_at: now,
      };
      const inserted = await trx
        .insertInto("wiki_pages")
        .values(row)
        .onConflict((oc) => oc.columns(["wiki_id", "name"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      await trx
        .insertInto("wiki_revisions")
        .values({ ...revision, page_id: row.id })
        .execute();
      return row;
    }
    const current = await pageRow(trx, wiki.id, name);
    if (!current) return null;
    const moved = await trx
      .updateTable("wiki_pages")
      .set((eb) => ({
        body: body.body,
        current_revision_id: revisionId,
        revision_count: eb("revision_count", "+", 1),
        updated_by_user_id: identity.userId,
        updated_at: now,
      }))
      .where("id", "=", current.id)
      .where("current_revision_id", "=", body.base_revision_id)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return null;
    await trx
      .insertInto("wiki_revisions")
      .values({ ...revision, page_id: current.id })
      .execute();
    return {
      ...current,
      body: body.body,
      current_revision_id: revisionId,
      revision_count: Number(current.revision_count) + 1,
      updated_by_user_id: identity.userId,
      updated_at: now,
    };
  });
  if (!outcome) throw editConflict(await pageRow(db, wiki.id, name));
  return toPage(outcome, wiki.slug);
}

export async function listRevisions(
  db: Kysely<Database>,
  pageId: string,
  limit: number,
): Promise<WikiRevision[]> {
  const page = await db
    .selectFrom("wiki_pages")
    .select("id")
    .where("id", "=", pageId)
    .executeTakeFirst();
  if (!page) throw notFound("Wiki page", pageId);
  const rows = await db
    .selectFrom("wiki_revisions")
    .selectAll()
    .where("page_id", "=", pageId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    page_id: r.page_id,
    parent_revision_id: r.parent_revision_id,
    body: r.body,
    summary: r.summary,
    author_user_id: r.author_user_id,
    created_at: r.created_at,
  }));
}

const SNIPPET_RADIUS = 80;

/** Some text around the first match of `q` (or the page's start). */
function snippetOf(body: string, q: string): string {
  const at = body.toLowerCase().indexOf(q.toLowerCase());
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const text = body
    .slice(start, Math.max(at, 0) + q.length + SNIPPET_RADIUS)
    .replace(/\s+/g, " ")
    .trim();
  return `${start > 0 ? "…" : ""}${text}`;
}

export async function searchWiki(
  db: Kysely<Database>,
  slug: string,
  query: { q: string; limit: number },
): Promise<WikiSearchHit[]> {
  const wiki = await wikiBySlug(db, slug);
  const pattern = containsPattern(query.q);
  const rows = await db
    .selectFrom("wiki_pages")
    .selectAll()
    .where("wiki_id", "=", wiki.id)
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(body) like ${pattern} escape '\\'`,
      ]),
    )
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    wiki: wiki.slug,
    page: r.name,
    snippet: snippetOf(r.body, query.q),
    updated_at: r.updated_at,
  }));
}

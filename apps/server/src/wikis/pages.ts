// Wiki pages: every edit names the revision it started from and keeps a new revision. The
// page row moves to the new revision only while it still points at that base (a guarded
// update), so of two edits from the same base exactly one wins and the other gets the 409
// `wiki_edit_conflict` with what is there now. An edit with an `idempotency_key` that was
// already applied answers that edit again instead of a conflict.
import { sql, type Kysely } from "kysely";

import {
  newId,
  type PutWikiPage,
  type WikiEdit,
  type WikiPage,
  type WikiRevision,
  type WikiRevisionPage,
  type WikiSearchPage,
} from "@gauntlet/core";

import type { AuthenticatedIdentity } from "../auth/identity.ts";
import { authorsOf, type AuthorOf } from "../forums/authors-view.ts";
import { authorOf, requireWriter } from "../forums/authors.ts";
import { renderMarkdown } from "../http/markdown.ts";
import { nowIso } from "../shared/clock.ts";
import { conflict, notFound } from "../shared/errors.ts";
import { containsPattern } from "../shared/like-pattern.ts";
import { decodeCursor, encodeCursor } from "../shared/page-cursor.ts";
import type { Database, WikiPagesTable, WikiRevisionsTable, WikisTable } from "../store/schema.ts";
import { wikiBySlug } from "./wikis.ts";

function toRevision(row: WikiRevisionsTable, authorOfRef: AuthorOf): WikiRevision {
  return {
    id: row.id,
    page_id: row.page_id,
    parent_revision_id: row.parent_revision_id,
    body: row.body,
    summary: row.summary,
    note: row.summary,
    author_user_id: row.author_user_id,
    author: authorOfRef({
      author_user_id: row.author_user_id,
      author_player_id: row.author_player_id ?? null,
    }),
    created_at: row.created_at,
  };
}

function toPage(
  row: WikiPagesTable,
  wiki: Pick<WikisTable, "id" | "slug">,
  current: WikiRevision,
): WikiPage {
  return {
    id: row.id,
    wiki: wiki.slug,
    wiki_id: wiki.id,
    page: row.name,
    slug: row.name,
    title: row.title ?? row.name,
    body: row.body,
    body_html: renderMarkdown(row.body),
    revision_id: row.current_revision_id,
    current_revision_id: row.current_revision_id,
    current_revision: current,
    revision_count: Number(row.revision_count),
    updated_by_user_id: row.updated_by_user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: null,
  };
}

/** Pages with their current revisions and those revisions' authors, in the order given. */
async function viewPages(
  db: Kysely<Database>,
  wiki: Pick<WikisTable, "id" | "slug">,
  rows: readonly WikiPagesTable[],
): Promise<WikiPage[]> {
  if (rows.length === 0) return [];
  const revisions = await db
    .selectFrom("wiki_revisions")
    .selectAll()
    .where(
      "id",
      "in",
      rows.map((r) => r.current_revision_id),
    )
    .execute();
  const authorOfRef = await authorsOf(db, revisions.map(authorRef));
  const byId = new Map(revisions.map((r) => [r.id, toRevision(r, authorOfRef)]));
  return rows.map((row) => {
    const current = byId.get(row.current_revision_id);
    if (!current) throw notFound("Wiki revision", row.current_revision_id);
    return toPage(row, wiki, current);
  });
}

function authorRef(row: WikiRevisionsTable) {
  return { author_user_id: row.author_user_id, author_player_id: row.author_player_id ?? null };
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

async function viewPage(
  db: Kysely<Database>,
  wiki: Pick<WikisTable, "id" | "slug">,
  row: WikiPagesTable,
): Promise<WikiPage> {
  const [page] = await viewPages(db, wiki, [row]);
  if (!page) throw notFound("Wiki page", row.id);
  return page;
}

export async function getWikiPage(
  db: Kysely<Database>,
  slug: string,
  name: string,
): Promise<WikiPage> {
  const wiki = await wikiBySlug(db, slug);
  const row = await pageRow(db, wiki.id, name);
  if (!row) throw notFound("Wiki page", `${slug}/${name}`);
  return viewPage(db, wiki, row);
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

/** Thrown inside the edit's transaction when a concurrent repeat of its key won: rolls it back. */
class RepeatedKey extends Error {}

/** The edit made earlier with this key, answered again; 409 when the key was used for another edit. */
async function repeatedEdit(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  wiki: Pick<WikisTable, "id" | "slug">,
  name: string,
  body: PutWikiPage,
): Promise<WikiEdit | undefined> {
  if (body.idempotency_key === undefined) return undefined;
  const revision = await db
    .selectFrom("wiki_revisions")
    .selectAll()
    .where("author_user_id", "=", identity.userId)
    .where("idempotency_key", "=", body.idempotency_key)
    .executeTakeFirst();
  if (!revision) return undefined;
  const page = await db
    .selectFrom("wiki_pages")
    .selectAll()
    .where("id", "=", revision.page_id)
    .executeTakeFirst();
  if (!page || page.wiki_id !== wiki.id || page.name !== name || revision.body !== body.body)
    throw conflict("This idempotency_key was used for another edit.", "idempotency_key_reused");
  const authorOfRef = await authorsOf(db, [authorRef(revision)]);
  return { page: await viewPage(db, wiki, page), revision: toRevision(revision, authorOfRef) };
}

export async function putWikiPage(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  slug: string,
  name: string,
  body: PutWikiPage,
): Promise<WikiEdit> {
  requireWriter(identity, "Wiki pages");
  const wiki = await wikiBySlug(db, slug);
  const repeat = await repeatedEdit(db, identity, wiki, name, body);
  if (repeat) return repeat;
  const now = nowIso();
  const revisionId = newId("revision");
  const author = authorOf(identity);
  const revision = {
    id: revisionId,
    parent_revision_id: body.base_revision_id,
    body: body.body,
    summary: body.summary ?? body.note ?? null,
    author_user_id: author.author_user_id,
    author_player_id: author.author_player_id,
    idempotency_key: body.idempotency_key ?? null,
    created_at: now,
  };
  const insertRevision = async (trx: Kysely<Database>, pageId: string) => {
    const inserted = await trx
      .insertInto("wiki_revisions")
      .values({ ...revision, page_id: pageId })
      .onConflict((oc) => oc.columns(["author_user_id", "idempotency_key"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new RepeatedKey();
  };
  const outcome = await db
    .transaction()
    .execute(async (trx) => {
      if (body.base_revision_id === null) {
        const row: WikiPagesTable = {
          id: newId("wikiPage"),
          wiki_id: wiki.id,
          name,
          title: body.title ?? null,
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
        await insertRevision(trx, row.id);
        return row;
      }
      const current = await pageRow(trx, wiki.id, name);
      if (!current) return null;
      const title = body.title ?? current.title ?? null;
      const moved = await trx
        .updateTable("wiki_pages")
        .set((eb) => ({
          title,
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
      await insertRevision(trx, current.id);
      return {
        ...current,
        title,
        body: body.body,
        current_revision_id: revisionId,
        revision_count: Number(current.revision_count) + 1,
        updated_by_user_id: identity.userId,
        updated_at: now,
      };
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof RepeatedKey)) throw error;
      return (await repeatedEdit(db, identity, wiki, name, body)) ?? null;
    });
  if (outcome === null) throw editConflict(await pageRow(db, wiki.id, name));
  if ("revision" in outcome) return outcome;
  const page = await viewPage(db, wiki, outcome);
  return { page, revision: page.current_revision };
}

export async function listRevisions(
  db: Kysely<Database>,
  pageId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<WikiRevisionPage> {
  const page = await db
    .selectFrom("wiki_pages")
    .select("id")
    .where("id", "=", pageId)
    .executeTakeFirst();
  if (!page) throw notFound("Wiki page", pageId);
  let q = db.selectFrom("wiki_revisions").selectAll().where("page_id", "=", pageId);
  if (query.cursor !== undefined) {
    const [key, id] = decodeCursor(query.cursor, "string");
    q = q.where((eb) =>
      eb.or([
        eb("created_at", "<", String(key)),
        eb.and([eb("created_at", "=", String(key)), eb("id", "<", id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const authorOfRef = await authorsOf(db, shown.map(authorRef));
  return {
    entries: shown.map((r) => toRevision(r, authorOfRef)),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
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

function occurrences(text: string, q: string): number {
  return text.toLowerCase().split(q.toLowerCase()).length - 1;
}

export async function searchWiki(
  db: Kysely<Database>,
  slug: string,
  query: {
    q: string;
    limit: number;
    cursor?: string | undefined;
    author_user_id?: string | undefined;
    author_player_id?: string | undefined;
  },
): Promise<WikiSearchPage> {
  const wiki = await wikiBySlug(db, slug);
  const pattern = containsPattern(query.q);
  let q = db
    .selectFrom("wiki_pages as p")
    .innerJoin("wiki_revisions as r", "r.id", "p.current_revision_id")
    .selectAll("p")
    .where("p.wiki_id", "=", wiki.id)
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(p.name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(p.body) like ${pattern} escape '\\'`,
      ]),
    );
  if (query.author_user_id !== undefined)
    q = q.where("r.author_user_id", "=", query.author_user_id);
  if (query.author_player_id !== undefined)
    q = q.where("r.author_player_id", "=", query.author_player_id);
  if (query.cursor !== undefined) {
    const [key, id] = decodeCursor(query.cursor, "string");
    q = q.where((eb) =>
      eb.or([
        eb("p.updated_at", "<", String(key)),
        eb.and([eb("p.updated_at", "=", String(key)), eb("p.id", "<", id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy("p.updated_at", "desc")
    .orderBy("p.id", "desc")
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const pages = await viewPages(db, wiki, shown);
  return {
    entries: pages.map((page) => ({
      page,
      current_author: page.current_revision.author,
      rank: occurrences(page.page, query.q) + occurrences(page.body, query.q),
      snippet: snippetOf(page.body, query.q),
    })),
    next_cursor: rows.length > query.limit && last ? encodeCursor(last.updated_at, last.id) : null,
    result_quality: "exact_within_wiki",
  };
}

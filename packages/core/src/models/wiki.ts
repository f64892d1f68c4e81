// Wikis (API.md "Posts, forums, wikis"): one per coworld, named by it. Every edit keeps a
// revision; an edit names the revision it started from, and a stale one is 409.
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";
import { Slug } from "./forum.ts";

export const WikiId = idSchema("wiki");
export const WikiPageId = idSchema("wikiPage");
export const RevisionId = idSchema("revision");

export const PageName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/)
  .meta({
    id: "WikiPageName",
    description: "Letters, digits, `.`, `_` and `-`.",
    example: "Strategies",
  });

export const Wiki = z
  .object({
    id: WikiId,
    slug: Slug,
    name: z.string(),
    coworld_name: z.string().nullable(),
    page_count: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: "Wiki" });

export const WikiPage = z
  .object({
    id: WikiPageId,
    wiki: Slug,
    page: PageName,
    body: z.string().meta({ description: "Markdown source." }),
    body_html: z.string().meta({
      description: "The body rendered to HTML; raw HTML is escaped and unsafe links dropped.",
    }),
    revision_id: RevisionId.meta({
      description: "Send it back as `base_revision_id` with the next edit.",
    }),
    revision_count: z.number().int(),
    updated_by_user_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "WikiPage" });

export const WikiRevision = z
  .object({
    id: RevisionId,
    page_id: WikiPageId,
    parent_revision_id: RevisionId.nullable(),
    body: z.string(),
    summary: z.string().nullable(),
    author_user_id: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: "WikiRevision" });

export const WikiSearchHit = z
  .object({
    id: WikiPageId,
    wiki: Slug,
    page: PageName,
    snippet: z.string(),
    updated_at: Timestamp,
  })
  .meta({ id: "WikiSearchHit" });

export const PutWikiPage = z
  .strictObject({
    body: z.string().max(200_000),
    base_revision_id: RevisionId.nullable().meta({
      description:
        "The revision this edit started from; null creates the page. A stale one is 409 `wiki_edit_conflict`.",
    }),
    summary: z.string().trim().max(500).optional(),
  })
  .meta({ id: "PutWikiPage" });

export const WikiPageParams = z.object({ slug: Slug, page: PageName });
export const WikiSlugParams = z.object({ slug: Slug });
export const WikiPageIdParams = z.object({ page_id: WikiPageId });
export const ListRevisionsQuery = z.object({ limit: queryInt(1, 200).default(50) });

export type Wiki = z.infer<typeof Wiki>;
export type WikiPage = z.infer<typeof WikiPage>;
export type WikiRevision = z.infer<typeof WikiRevision>;
export type WikiSearchHit = z.infer<typeof WikiSearchHit>;
export type PutWikiPage = z.infer<typeof PutWikiPage>;

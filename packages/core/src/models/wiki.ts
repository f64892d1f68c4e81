// Wikis (docs/api.md, "Forums, wikis and profiles in short"): one per coworld, named by it. Every
// edit keeps a revision; an edit names the revision it started from, and a stale one is 409.
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { queryInt, Timestamp } from "./common.ts";
import { Author, AuthoredSearchQuery, Slug } from "./forum.ts";

export const WikiId = idSchema("wiki");
export const WikiPageId = idSchema("wikiPage");
export const RevisionId = idSchema("revision");

// Path-like names (`guides/opening`) as the hosted service's wikis have them: each segment
// starts with a letter or digit, so none is empty, `.` or `..`.
export const PageName = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,127})*$/)
  .meta({
    id: "WikiPageName",
    description:
      "Segments of letters, digits, `.`, `_` and `-`, each starting with a letter or digit, joined by `/` (at most 255 characters).",
    example: "guides/opening",
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

export const WikiRevision = z
  .object({
    id: RevisionId,
    page_id: WikiPageId,
    parent_revision_id: RevisionId.nullable(),
    body: z.string(),
    summary: z.string().nullable(),
    note: z.string().nullable().meta({ description: "The same as `summary`." }),
    author_user_id: z.string(),
    author: Author,
    created_at: Timestamp,
  })
  .meta({ id: "WikiRevision" });

export const WikiPage = z
  .object({
    id: WikiPageId,
    wiki: Slug,
    wiki_id: WikiId,
    page: PageName,
    slug: PageName.meta({ description: "The same as `page`." }),
    title: z.string().meta({ description: "Its title; the page's name until one is given." }),
    body: z.string().meta({ description: "Markdown source." }),
    body_html: z.string().meta({
      description: "The body rendered to HTML; raw HTML is escaped and unsafe links dropped.",
    }),
    revision_id: RevisionId.meta({
      description: "Send it back as `base_revision_id` with the next edit.",
    }),
    current_revision_id: RevisionId.meta({ description: "The same as `revision_id`." }),
    current_revision: WikiRevision,
    revision_count: z.number().int(),
    updated_by_user_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: z.null().meta({ description: "Pages are never deleted." }),
  })
  .meta({ id: "WikiPage" });

export const WikiEdit = z
  .object({ page: WikiPage, revision: WikiRevision })
  .meta({ id: "WikiEdit", description: "The page after the edit, and the revision it made." });

export const WikiRevisionPage = z
  .object({ entries: z.array(WikiRevision), next_cursor: z.string().nullable() })
  .meta({ id: "WikiRevisionPage" });

export const WikiSearchHit = z
  .object({
    page: WikiPage,
    current_author: Author.meta({ description: "The author of the page's current revision." }),
    rank: z.number().meta({ description: "How often the query occurs in the name and body." }),
    snippet: z.string(),
  })
  .meta({ id: "WikiSearchHit" });

export const WikiSearchPage = z
  .object({
    entries: z.array(WikiSearchHit).meta({ description: "Most recently edited first." }),
    next_cursor: z.string().nullable(),
    result_quality: z.literal("exact_within_wiki"),
  })
  .meta({ id: "WikiSearchPage" });

export const PutWikiPage = z
  .strictObject({
    body: z.string().max(200_000),
    base_revision_id: RevisionId.nullable().meta({
      description:
        "The revision this edit started from; null creates the page. A stale one is 409 `wiki_edit_conflict`.",
    }),
    summary: z.string().trim().max(500).optional(),
    note: z.string().trim().max(500).optional().meta({ description: "The same as `summary`." }),
    title: z.string().trim().min(1).max(300).optional().meta({
      description: "A new title; without it the page keeps its title.",
    }),
    idempotency_key: z.string().min(1).max(200).optional().meta({
      description:
        "A repeat with the same key (per author) answers the edit made first instead of a 409; the same key with another edit is 409.",
    }),
  })
  .refine((b) => b.note === undefined || b.summary === undefined || b.note === b.summary, {
    message: "note and summary differ",
    path: ["note"],
  })
  .meta({ id: "PutWikiPage" });

export const WikiPageParams = z.object({ slug: Slug, page: PageName });
export const WikiSlugParams = z.object({ slug: Slug });
export const WikiPageIdParams = z.object({ page_id: WikiPageId });
export const ListRevisionsQuery = z.object({
  limit: queryInt(1, 200).default(50),
  cursor: z
    .string()
    .max(500)
    .optional()
    .meta({ description: "`next_cursor` of the previous page." }),
});

export const WikiSearchQuery = AuthoredSearchQuery.extend({
  author_player_id: z.string().max(100).optional(),
});

export type Wiki = z.infer<typeof Wiki>;
export type WikiPage = z.infer<typeof WikiPage>;
export type WikiRevision = z.infer<typeof WikiRevision>;
export type WikiSearchHit = z.infer<typeof WikiSearchHit>;
export type WikiSearchPage = z.infer<typeof WikiSearchPage>;
export type WikiEdit = z.infer<typeof WikiEdit>;
export type WikiRevisionPage = z.infer<typeof WikiRevisionPage>;
export type PutWikiPage = z.infer<typeof PutWikiPage>;

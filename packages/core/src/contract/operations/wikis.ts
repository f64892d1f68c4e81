// Wikis: a wiki per coworld, pages edited against the revision they started from
// (docs/api.md, "Forums, wikis and profiles in short").
import { z } from "zod";

import {
  ListRevisionsQuery,
  PutWikiPage,
  Wiki,
  WikiEdit,
  WikiPage,
  WikiPageIdParams,
  WikiPageParams,
  WikiRevisionPage,
  WikiSearchPage,
  WikiSearchQuery,
  WikiSlugParams,
} from "../../models/wiki.ts";
import { defineOperation } from "../operation.ts";

export const wikiOperations = {
  listWikis: defineOperation({
    id: "listWikis",
    method: "GET",
    path: "/v2/wikis",
    tag: "Wikis",
    summary: "List the wikis, one per coworld name",
    auth: "optional",
    access: "public",
    complexity: 5,
    status: 200,
    response: z.array(Wiki),
  }),
  getWikiPage: defineOperation({
    id: "getWikiPage",
    method: "GET",
    path: "/v2/wikis/{slug}/pages/{page}",
    tag: "Wikis",
    summary: "A wiki page at its current revision",
    auth: "optional",
    access: "public",
    complexity: 5,
    params: WikiPageParams,
    // A page name may hold `/` (`guides/opening`), sent as is or encoded.
    restOfPath: "page",
    status: 200,
    response: WikiPage,
  }),
  putWikiPage: defineOperation({
    id: "putWikiPage",
    method: "PUT",
    path: "/v2/wikis/{slug}/pages/{page}",
    tag: "Wikis",
    summary: "Create (`base_revision_id: null`) or edit a wiki page; every edit keeps a revision",
    description:
      'Answers the page after the edit and the revision made. `base_revision_id` names the revision the edit started from. When the page has moved on (or already exists for a create) the answer is 409 `{detail: {type: "wiki_edit_conflict", message, current_revision_id, current_body}}`: merge and send again with `current_revision_id`.',
    auth: "required",
    access: "user",
    complexity: 20,
    params: WikiPageParams,
    restOfPath: "page",
    body: PutWikiPage,
    status: 200,
    response: WikiEdit,
  }),
  listWikiPageRevisions: defineOperation({
    id: "listWikiPageRevisions",
    method: "GET",
    path: "/v2/wiki-pages/{page_id}/revisions",
    tag: "Wikis",
    summary: "A page's revisions, newest first, a page at a time",
    auth: "optional",
    access: "public",
    complexity: 10,
    params: WikiPageIdParams,
    query: ListRevisionsQuery,
    status: 200,
    response: WikiRevisionPage,
  }),
  searchWiki: defineOperation({
    id: "searchWiki",
    method: "GET",
    path: "/v2/wikis/{slug}/search",
    tag: "Wikis",
    summary:
      "Pages of a wiki whose name or body contains `q` (case-insensitive), most recently edited first",
    auth: "optional",
    access: "public",
    complexity: 20,
    params: WikiSlugParams,
    description:
      "`author_user_id` / `author_player_id` keep pages whose current revision that user or player wrote.",
    query: WikiSearchQuery,
    status: 200,
    response: WikiSearchPage,
  }),
} as const;

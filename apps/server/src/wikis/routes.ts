// The handlers of the wiki operations.
import { defineHandlers } from "../http/handler.ts";
import { getWikiPage, listRevisions, putWikiPage, searchWiki } from "./pages.ts";
import { listWikis } from "./wikis.ts";

export const wikiHandlers = defineHandlers({
  listWikis: async ({ app }) => listWikis(app.store.db),
  getWikiPage: async ({ params, app }) => getWikiPage(app.store.db, params.slug, params.page),
  putWikiPage: async ({ identity, params, body, app }) =>
    putWikiPage(app.store.db, identity, params.slug, params.page, body),
  listWikiPageRevisions: async ({ params, query, app }) =>
    listRevisions(app.store.db, params.page_id, query),
  searchWiki: async ({ params, query, app }) => searchWiki(app.store.db, params.slug, query),
});

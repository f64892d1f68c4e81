// The web view's handlers: the pages (each the same shell, with the base path it was asked under
// and the subject its address names), their bundled script, and the hosted service's page links.
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { basePathOf } from "./base-path.ts";
import { webPathOf } from "./deep-links.ts";
import { webChartStyles, webScript } from "./web-bundle.ts";
import { WEB_CONTENT_SECURITY_POLICY, webPage, type WebPageKind } from "./web-page.ts";

interface PageContext {
  app: { config: { apiPrefix: string } };
  request: { originalUrl: string; url: string };
  reply: { header(name: string, value: string): unknown };
}

async function page(ctx: PageContext, kind: WebPageKind, subject: string): Promise<string> {
  ctx.reply.header("content-security-policy", WEB_CONTENT_SECURITY_POLICY);
  const base = basePathOf(ctx.request.originalUrl, ctx.request.url, ctx.app.config.apiPrefix);
  return webPage(base, kind, subject, await webChartStyles());
}

export const homePageHandlers = defineHandlers({
  getHomePage: (ctx) => page(ctx, "home", ""),
  getWebLeaguePage: (ctx) => page(ctx, "league", ctx.params.id),
  getWebDivisionPage: (ctx) => page(ctx, "division", ctx.params.id),
  getWebRoundPage: (ctx) => page(ctx, "round", ctx.params.id),
  getWebEpisodePage: (ctx) => page(ctx, "episode", ctx.params.id),
  getWebPlayerPage: (ctx) => page(ctx, "player", ctx.params.id),
  getWebPolicyVersionPage: (ctx) => page(ctx, "policy-version", ctx.params.id),
  // One script for every page, `/` included; `/home.js` stays for pages cached before it.
  getHomePageScript: () => webScript(),
  getWebScript: () => webScript(),
  openObservatoryLink: async ({ app, request, reply, query }) => {
    const base = basePathOf(request.originalUrl, request.url, app.config.apiPrefix);
    await reply.redirect(`${base}${webPathOf(query)}`, 302);
    return REPLIED;
  },
});

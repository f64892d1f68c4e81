// The web view's handlers: the page (with the base path it was asked under) and its script.
import { defineHandlers } from "../http/handler.ts";
import { basePathOf, HOME_CONTENT_SECURITY_POLICY, homePage } from "./home-page.ts";
import { HOME_SCRIPT } from "./home-script.ts";

export const homePageHandlers = defineHandlers({
  getHomePage: async ({ app, request, reply }) => {
    reply.header("content-security-policy", HOME_CONTENT_SECURITY_POLICY);
    return homePage(basePathOf(request.originalUrl, request.url, app.config.apiPrefix));
  },
  getHomePageScript: async () => HOME_SCRIPT,
});

// The web view's sign-in, session and sign-out (auth/web-session.ts holds why the cookie is safe).
// Sign-in is the CLI's: the same password check, the same limits on wrong passwords, the same
// refusal of another site's posts; what it hands back is a cookie instead of a code.
import type { FastifyRequest } from "fastify";

import type { WebSession } from "@gauntlet/core";

import { csrfOf, sessionCookie, sessionCookieOf, WEB_SESSION_DAYS } from "../auth/web-session.ts";
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { assertOwnOrigin, SIGN_IN_DOCS_PATH, SignInGuard } from "../identity/sign-in-guard.ts";
import { createApiToken, revokeToken } from "../identity/tokens.ts";
import { checkPassword } from "../identity/users.ts";
import { basePathOf } from "./base-path.ts";
import { webSignInPage } from "./web-sign-in-page.ts";

const SIGNED_OUT: WebSession = { signed_in: false, user_id: null, user_email: null, csrf: null };

const secure = (request: FastifyRequest, publicBase: string) =>
  request.protocol === "https" || publicBase.startsWith("https:");

export const webSessionHandlers = defineHandlers({
  webSignInPage: async ({ app, request, reply }) => {
    reply.header("cache-control", "no-store");
    return webSignInPage({
      basePath: basePathOf(request.originalUrl, request.url, app.config.apiPrefix),
    });
  },

  webSignIn: async ({ body, app, request, reply }) => {
    const publicBase = app.baseUrl(request);
    assertOwnOrigin(request, publicBase);
    const basePath = basePathOf(request.originalUrl, request.url, app.config.apiPrefix);
    const guard = new SignInGuard(app.attempts);
    await guard.admit(body.email, request.ip, `${publicBase}${SIGN_IN_DOCS_PATH}`, (seconds) => {
      reply.header("retry-after", String(seconds));
    });
    const user = await checkPassword(app.store.db, body.email, body.password);
    if (!user) {
      reply.code(401).header("cache-control", "no-store");
      return webSignInPage({ basePath, email: body.email, error: "Wrong email or password." });
    }
    await guard.succeeded(body.email, request.ip);
    const { token } = await createApiToken(app.store.db, {
      userId: user.id,
      name: `web session ${new Date().toISOString()}`,
      kind: "user",
      expiresInDays: WEB_SESSION_DAYS,
    });
    await reply
      .header("set-cookie", sessionCookie(token, secure(request, publicBase)))
      .header("cache-control", "no-store")
      .redirect(`${basePath}/`, 302);
    return REPLIED;
  },

  getWebSession: async ({ app, request, reply }) => {
    reply.header("cache-control", "no-store");
    // Only this origin's own pages learn the CSRF value (a browser says where a request is from).
    const site = request.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return SIGNED_OUT;
    const token = sessionCookieOf(request.headers.cookie);
    const identity = token === undefined ? null : await app.auth.authenticate(token);
    if (!identity || identity.kind !== "user") {
      // A cookie whose token was revoked (with the CLI) or expired goes, before the page uses it.
      if (token !== undefined)
        reply.header("set-cookie", sessionCookie(null, secure(request, app.baseUrl(request))));
      return SIGNED_OUT;
    }
    return {
      signed_in: true,
      user_id: identity.userId,
      user_email: identity.email,
      csrf: csrfOf(token ?? ""),
    };
  },

  webSignOut: async ({ identity, app, request, reply }) => {
    const publicBase = app.baseUrl(request);
    // The session's own token only: a bearer token sent here is the caller's to revoke elsewhere.
    if (
      request.headers.authorization === undefined &&
      request.headers["x-auth-token"] === undefined
    ) {
      await revokeToken(app.store.db, identity, identity.tokenId);
      await app.auth.revoke({ tokenIds: [identity.tokenId] });
    }
    reply
      .header("set-cookie", sessionCookie(null, secure(request, publicBase)))
      .header("cache-control", "no-store");
    return SIGNED_OUT;
  },
});

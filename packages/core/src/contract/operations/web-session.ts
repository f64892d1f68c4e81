// The web view's own sign-in (issue 43): the same email and password as the CLI's browser page,
// kept by the browser in an HttpOnly, SameSite=Strict cookie that counts only beside the
// `X-Gauntlet-CSRF` header the pages' script sends (docs/api.md, "The web view").
import { z } from "zod";

import { WebSession } from "../../models/identity.ts";
import { defineOperation, MAX_FORM_BODY_BYTES } from "../operation.ts";

export const WebSignInForm = z.strictObject({
  email: z.string().max(320),
  password: z.string().max(1000),
});

export const webSessionOperations = {
  webSignInPage: defineOperation({
    id: "webSignInPage",
    method: "GET",
    path: "/web/sign-in",
    tag: "Service",
    summary: "The web view's sign-in page",
    auth: "none",
    complexity: 1,
    status: 200,
    response: z.string(),
    responseKind: "html",
  }),
  webSignIn: defineOperation({
    id: "webSignIn",
    method: "POST",
    path: "/web/sign-in",
    tag: "Service",
    summary: "Sign in to the web view; sets its session cookie and redirects (302) to `/`",
    description:
      "The form of `GET /web/sign-in`, with the CLI sign-in's limits on wrong passwords and its refusal of another site's posts. The cookie (`gauntlet_web`: HttpOnly, SameSite=Strict, 30 days) holds a user token named `web session …`; it authenticates a request only beside the `X-Gauntlet-CSRF` header that `GET /web/session` gives the page. A wrong password shows the form again (401).",
    auth: "none",
    maxBodyBytes: MAX_FORM_BODY_BYTES,
    complexity: 10,
    body: WebSignInForm,
    bodyContentType: "application/x-www-form-urlencoded",
    status: 302,
    response: z.string(),
    responseKind: "html",
    pageStatuses: [401],
  }),
  getWebSession: defineOperation({
    id: "getWebSession",
    method: "GET",
    path: "/web/session",
    tag: "Service",
    summary: "Who the web view's cookie signs in, and the CSRF value its pages send",
    description:
      "Read by the pages' own script (same origin). Without a valid cookie, or asked from another site's page (`Sec-Fetch-Site`), `signed_in` is false and every other field null. It reads the cookie itself; the request draws on the anonymous budget of its address, so guessing cookies costs what any read costs.",
    auth: "optional",
    access: "public",
    complexity: 1,
    status: 200,
    response: WebSession,
  }),
  webSignOut: defineOperation({
    id: "webSignOut",
    method: "POST",
    path: "/web/sign-out",
    tag: "Service",
    summary: "Sign out of the web view: revokes the session's token and clears its cookie",
    auth: "required",
    access: "user",
    complexity: 1,
    status: 200,
    response: WebSession,
  }),
} as const;

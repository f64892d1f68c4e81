// The web view's session: the browser keeps a user token in an HttpOnly, SameSite=Strict cookie,
// and the cookie authenticates a request only beside `X-Gauntlet-CSRF`, a value derived from the
// token that only this origin's own pages can learn (`GET /web/session`, unreadable from another
// origin: no CORS grant carries credentials). So a link, form or image from another site — or a
// sandboxed upload on this one — that makes the browser send the cookie acts as nobody.
import { createHash, timingSafeEqual } from "node:crypto";

export const WEB_SESSION_COOKIE = "gauntlet_web";
export const WEB_CSRF_HEADER = "x-gauntlet-csrf";
export const WEB_SESSION_DAYS = 30;

/** The CSRF value of a session token: one-way, so the page holding it cannot recover the token. */
export function csrfOf(token: string): string {
  return createHash("sha256").update(`gauntlet web csrf\0${token}`).digest("base64url");
}

/** The session cookie's token in a `Cookie` header, if any. */
export function sessionCookieOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === WEB_SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[\w.~-]{1,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The session's token when the request carries both the cookie and its matching CSRF header. */
export function webSessionToken(headers: {
  cookie?: string | undefined;
  [WEB_CSRF_HEADER]?: string | string[] | undefined;
}): string | undefined {
  const csrf = headers[WEB_CSRF_HEADER];
  if (typeof csrf !== "string") return undefined;
  const token = sessionCookieOf(headers.cookie);
  if (token === undefined) return undefined;
  const want = Buffer.from(csrfOf(token));
  const got = Buffer.from(csrf.trim());
  return got.length === want.length && timingSafeEqual(got, want) ? token : undefined;
}

/** The `Set-Cookie` value that keeps `token` (or, with null, clears the cookie). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
  return token === null
    ? `${WEB_SESSION_COOKIE}=; Max-Age=0; ${attributes}`
    : `${WEB_SESSION_COOKIE}=${token}; Max-Age=${WEB_SESSION_DAYS * 86400}; ${attributes}`;
}

/**
 * A browser's WebSocket carries no header of the page's, but always its `Origin`: the cookie
 * counts for a socket that this service's own page opens (`own`: its origins), never for one
 * another site's page — or a sandboxed, opaque-origin upload (`Origin: null`) — opens.
 */
export function webSocketSessionToken(
  headers: {
    upgrade?: string | undefined;
    origin?: string | undefined;
    cookie?: string | undefined;
  },
  own: () => readonly string[],
): string | undefined {
  if (headers.upgrade?.toLowerCase() !== "websocket" || headers.origin === undefined)
    return undefined;
  const token = sessionCookieOf(headers.cookie);
  return token !== undefined && own().includes(headers.origin.toLowerCase()) ? token : undefined;
}

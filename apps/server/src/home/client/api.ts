// Reads and writes of this server's API as the visitor: anonymous, or — signed in on this site —
// the user whose session cookie the browser holds (HttpOnly: this script never sees it), sent
// only with the `X-Gauntlet-CSRF` value `/web/session` gives this origin's pages. The API's own
// access rules decide what a page may show, so the pages never hold a second rule of who may see
// what.
import type { WebSession } from "@gauntlet/core";

export const base = document.documentElement.getAttribute("data-base") ?? "";

export class NotFound extends Error {}
export class Refused extends Error {
  readonly status: number;
  readonly detail: string;
  constructor(status: number, detail: string) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

const SIGNED_OUT: WebSession = { signed_in: false, user_id: null, user_email: null, csrf: null };

let known = false;

/** Who the visitor is, asked once per page (every read waits for it: it carries the CSRF value). */
export const session: Promise<WebSession> = fetch(`${base}/web/session`, {
  headers: { accept: "application/json" },
  credentials: "same-origin",
})
  .then((r) => (r.ok ? (r.json() as Promise<WebSession>) : SIGNED_OUT))
  .catch(() => SIGNED_OUT)
  .then((s) => {
    known = s.signed_in;
    return s;
  });

/** Signed in, as far as known now: after any read has answered, it is known. */
export const signedIn = () => known;

async function send(path: string, init: RequestInit): Promise<Response> {
  const { csrf } = await session;
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  if (csrf) headers.set("x-gauntlet-csrf", csrf);
  return fetch(base + path, { ...init, headers, credentials: csrf ? "same-origin" : "omit" });
}

/** The error body's message, whatever its shape (`{detail: "…"}`, `{detail: {message}}`, 422). */
async function why(r: Response): Promise<string> {
  try {
    const body = (await r.json()) as { detail?: unknown };
    const d = body.detail;
    if (typeof d === "string") return d;
    if (Array.isArray(d))
      return d.map((x: { msg?: string }) => x.msg ?? JSON.stringify(x)).join("; ");
    if (d && typeof d === "object" && "message" in d) return String(d.message);
  } catch {
    // not JSON
  }
  return `answered ${r.status}`;
}

export async function get<T>(path: string): Promise<T> {
  const r = await send(path, {});
  if (r.status === 404) throw new NotFound(`${path} was not found`);
  if (!r.ok) throw new Refused(r.status, `${path}: ${await why(r)}`);
  return (await r.json()) as T;
}

/** A read that may be refused (a seat's log the visitor may not read): null then. */
export async function maybeGet(path: string): Promise<Response | null> {
  const r = await send(path, {});
  return r.ok ? r : null;
}

export async function post<T>(path: string, body?: unknown): Promise<T> {
  const r = await send(
    path,
    body === undefined
      ? { method: "POST" }
      : {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        },
  );
  if (!r.ok) throw new Refused(r.status, await why(r));
  return (await r.json()) as T;
}

export const q = encodeURIComponent;

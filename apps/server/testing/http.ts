// A tiny fetch wrapper for tests: JSON in, status + headers + parsed body out.
import { ELEVATION_HEADER } from "@gauntlet/core";

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

// Tokens of admins (the test server's first admin, newUser({ admin: true })): a test that sends
// one means to act as admin, so it asks for the powers as an admin's client must (docs/api.md,
// "Elevated privileges") unless it says `elevated: false`.
const adminTokens = new Set<string>();

export function registerAdminToken(token: string): void {
  adminTokens.add(token);
}

export interface HttpOptions {
  token?: string | undefined;
  /** Send X-Use-Elevated-Privileges: true; by default for an admin's token (see above). */
  elevated?: boolean;
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: "manual" | "follow" | "error";
}

export async function http<T = unknown>(
  method: string,
  url: string,
  options: HttpOptions = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const asked = Object.keys(headers).some(
    (name) => name.toLowerCase() === ELEVATION_HEADER.toLowerCase(),
  );
  if (
    !asked &&
    (options.elevated ?? (options.token !== undefined && adminTokens.has(options.token)))
  )
    headers[ELEVATION_HEADER] = "true";
  let body: string | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === "string") body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
  }
  const res = await fetch(url, { method, headers, body, redirect: options.redirect ?? "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Binds a base URL and token. */
export function client(base: string, token?: string) {
  return {
    get: <T = unknown>(path: string, o: HttpOptions = {}) =>
      http<T>("GET", base + path, { token, ...o }),
    post: <T = unknown>(path: string, body?: unknown, o: HttpOptions = {}) =>
      http<T>("POST", base + path, { token, body, ...o }),
    put: <T = unknown>(path: string, body?: unknown, o: HttpOptions = {}) =>
      http<T>("PUT", base + path, { token, body, ...o }),
    patch: <T = unknown>(path: string, body?: unknown, o: HttpOptions = {}) =>
      http<T>("PATCH", base + path, { token, body, ...o }),
    delete: <T = unknown>(path: string, o: HttpOptions = {}) =>
      http<T>("DELETE", base + path, { token, ...o }),
  };
}

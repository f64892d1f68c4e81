// The one spelling of a server address: credentials are keyed by it, and clients join
// contract paths onto it. The base path is kept.

/** Thrown when a server address cannot be used (not http(s), credentials in it, …). */
export class InvalidServerUrlError extends Error {
  override readonly name = "InvalidServerUrlError";
}

/** `HTTPS://Example.com/observatory/` → `https://example.com/observatory`. */
export function normalizeServerUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidServerUrlError(
      `not a URL: ${JSON.stringify(input)} (expected e.g. https://gauntlet.example.com/observatory)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidServerUrlError(
      `server URL must be http or https, got ${url.protocol} in ${JSON.stringify(input)}`,
    );
  }
  if (url.username || url.password)
    throw new InvalidServerUrlError(
      "server URL must not carry a user name or password; use a token",
    );
  if (url.search || url.hash)
    throw new InvalidServerUrlError(
      `server URL must not have a query or fragment: ${JSON.stringify(input)}`,
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

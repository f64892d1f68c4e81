// Where the API was asked for: the web view's links and its script's reads start with it, so the
// pages work at an alt host's root and under the data host's prefix alike.

/** The API base path a request came in under: the prefix on the data host, else the root. */
export function basePathOf(originalUrl: string, url: string, prefix: string): string {
  return url !== originalUrl && originalUrl.startsWith(prefix) ? prefix : "";
}

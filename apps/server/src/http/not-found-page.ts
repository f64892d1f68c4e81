// A browser that opens an address the API does not serve (the data host's root without its
// prefix, a sign-in link missing it) gets a page that says where the service is, instead of a
// JSON error; API clients, which do not ask for HTML first, keep the JSON 404.
import { hostnameOf } from "./base-path.ts";
import { escapeHtml, page } from "./html.ts";

/** Whether the request prefers HTML: a browser's navigation, not an API client's `*\/*`. */
export function wantsHtml(method: string, accept: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const first = (accept ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("text/html");
}

/**
 * The page for a path this host does not serve: on the data host, the same path under the
 * prefix; on another host, the path without a prefix it should not carry.
 */
export function notFoundPage(
  path: string,
  hostHeader: string | undefined,
  prefix: string,
  dataHosts: readonly string[],
): string {
  const onDataHost = dataHosts.map((h) => h.toLowerCase()).includes(hostnameOf(hostHeader));
  const underPrefix = path === prefix || path.startsWith(`${prefix}/`);
  const suggestion = onDataHost
    ? underPrefix
      ? null
      : `${prefix}${path === "/" ? "" : path}`
    : underPrefix
      ? path.slice(prefix.length) || "/"
      : null;
  const home = onDataHost ? prefix : "/";
  return page(
    "Not found · Gauntlet",
    `<h1>Nothing here</h1>
<p>This Gauntlet server serves nothing at <code>${escapeHtml(path)}</code>.</p>
${
  suggestion === null
    ? ""
    : `<p>On this host the service is ${onDataHost ? `under <code>${escapeHtml(prefix)}</code>` : "at the root"}: did you mean <a href="${escapeHtml(suggestion)}">${escapeHtml(suggestion)}</a>?</p>`
}
<p><a href="${escapeHtml(home)}">The server's front page</a> lists its leagues and links to the API reference.</p>`,
  );
}

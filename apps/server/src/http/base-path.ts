// The data host carries the API under a prefix, an alt host at its root, and
// the prefix at an alt host's root is 404. Probes answer at the root of every host, and the
// data host also serves the browser sign-in pages at its root: the hosted service's clients
// (softmax-cli) open `{server}/cli-auth` and call the API at `{server}/observatory/…` on one host.

/** URLs rewritten here match no route, so they get the router's 404. */
export const UNROUTABLE = "/__gauntlet_unroutable__";

/** What the data host serves at its root as well as under the prefix. */
const DATA_HOST_ROOT_PATHS = new Set(["/healthz", "/readyz", "/cli-auth", "/cli-login"]);

export function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function underPrefix(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
}

export function createUrlRewriter(prefix: string, dataHosts: readonly string[]) {
  const data = new Set(dataHosts.map((h) => h.toLowerCase()));
  // Without data hosts every Host is the API's: no need to read it on every request.
  if (data.size === 0)
    return (url: string, _hostHeader?: string): string =>
      underPrefix(url, prefix) ? UNROUTABLE + url : url;
  // The last Host seen and whether it is a data host: clients send the same one request after
  // request, and reading it (trim, lower case, port) is a share of a cheap read (bench/hot-path).
  let lastHost: string | undefined;
  let lastIsData = data.has("");
  return (url: string, hostHeader: string | undefined): string => {
    if (hostHeader !== lastHost) {
      lastIsData = data.has(hostnameOf(hostHeader));
      lastHost = hostHeader;
    }
    if (lastIsData) {
      if (underPrefix(url, prefix)) return url.slice(prefix.length) || "/";
      return DATA_HOST_ROOT_PATHS.has(pathOf(url)) ? url : UNROUTABLE + url;
    }
    return underPrefix(url, prefix) ? UNROUTABLE + url : url;
  };
}

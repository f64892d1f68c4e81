// The content types play module files are served with, by extension. Only types a browser
// should render or run are named; everything else is served as opaque bytes (with nosniff).
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
};

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot + 1).toLowerCase() : "";
  return TYPES[ext] ?? "application/octet-stream";
}

/**
 * Headers of every served file. A play module is the coworld owner's code: `sandbox` (without
 * allow-same-origin) runs it in an opaque origin, so its script cannot read the API, its cookies
 * or its storage as the person viewing it. Within that, it loads scripts, styles and images only
 * from this host, connects only back to it (the game's WebSocket, a replay's capability address),
 * is framed by no other site and submits no forms. Module scripts of an opaque origin are fetched
 * with CORS: the files are public, so any origin may read them (no credentials are involved).
 */
export const PLAY_MODULE_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "sandbox allow-scripts allow-pointer-lock allow-popups allow-downloads; default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
  "access-control-allow-origin": "*",
  "cross-origin-resource-policy": "cross-origin",
  "referrer-policy": "no-referrer",
  "cache-control": "public, max-age=300",
};

// The terminal UI's boundary with the server: every string in a JSON answer has its control
// characters made visible (`visible` in @gauntlet/core) before any screen sees it, so a rival's
// name cannot drive the terminal (clear it, set its title, write the clipboard). Live events get
// the same in division-watch.ts.
import { visibleDeep } from "@gauntlet/core";
import type { FetchLike } from "@gauntlet/sdk";

export function visibleFetch(inner: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!(response.headers.get("content-type") ?? "").includes("json")) return response;
    const text = await response.text();
    let body = text;
    try {
      body = JSON.stringify(visibleDeep(JSON.parse(text) as unknown));
    } catch {
      // Not JSON after all: the SDK reports it as it would have.
    }
    const headers = new Headers(response.headers);
    // The body is decoded and re-encoded here: its stored length and encoding no longer apply.
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

// The hosted service's page links, as its clients print them, map to the web view's pages.
import { describe, expect, it } from "vitest";

import { webPathOf } from "./deep-links.ts";

describe("webPathOf", () => {
  it("sends a league or an uploaded version's link to its page", () => {
    expect(webPathOf({ tab: "leagues", detail: "league:league_abc" })).toBe(
      "/web/leagues/league_abc",
    );
    expect(webPathOf({ tab: "uploads", detail: "policy-version:1234" })).toBe(
      "/web/policy-versions/1234",
    );
    expect(webPathOf({ detail: "episode:ereq_x" })).toBe("/web/episodes/ereq_x");
  });

  it("keeps an id inside its page's path, and sends what it does not know home", () => {
    expect(webPathOf({ detail: "league:../../admin?x=1" })).toBe(
      "/web/leagues/..%2F..%2Fadmin%3Fx%3D1",
    );
    expect(webPathOf({ detail: "league://evil.example" })).toBe("/web/leagues/%2F%2Fevil.example");
    expect(webPathOf({ tab: "leagues" })).toBe("/");
    expect(webPathOf({ detail: "secrets:1" })).toBe("/");
    expect(webPathOf({ detail: "league:" })).toBe("/");
    expect(webPathOf({ detail: "constructor:x" })).toBe("/");
    expect(webPathOf({ detail: "__proto__:x" })).toBe("/");
  });
});

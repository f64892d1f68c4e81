import { describe, expect, it } from "vitest";

import { createUrlRewriter, hostnameOf, UNROUTABLE } from "./base-path.ts";

describe("base path rewriting", () => {
  const rewrite = createUrlRewriter("/observatory", ["localhost", "api.example.org"]);

  it("strips the prefix on a data host", () => {
    expect(rewrite("/observatory/v2/leagues?x=1", "localhost:8787")).toBe("/v2/leagues?x=1");
    expect(rewrite("/observatory", "api.example.org")).toBe("/");
  });

  it("serves the root on an alt host and 404s the prefix there", () => {
    expect(rewrite("/v2/leagues", "127.0.0.1:8787")).toBe("/v2/leagues");
    expect(rewrite("/observatory/whoami", "127.0.0.1:8787")).toBe(
      `${UNROUTABLE}/observatory/whoami`,
    );
  });

  it("does not serve the API without the prefix on a data host, but answers probes", () => {
    expect(rewrite("/whoami", "localhost")).toBe(`${UNROUTABLE}/whoami`);
    expect(rewrite("/healthz", "localhost")).toBe("/healthz");
  });

  it("serves the browser sign-in pages at a data host's root too (softmax-cli opens them there)", () => {
    expect(rewrite("/cli-auth?callback=x", "localhost")).toBe("/cli-auth?callback=x");
    expect(rewrite("/cli-login", "localhost")).toBe("/cli-login");
    expect(rewrite("/cli-login/x", "localhost")).toBe(`${UNROUTABLE}/cli-login/x`);
  });

  it("does not mistake a longer first segment for the prefix", () => {
    expect(rewrite("/observatoryx/whoami", "127.0.0.1")).toBe("/observatoryx/whoami");
  });

  it("reads each request's Host, whichever came before", () => {
    expect(rewrite("/v2/leagues", "localhost")).toBe(`${UNROUTABLE}/v2/leagues`);
    expect(rewrite("/v2/leagues", "127.0.0.1")).toBe("/v2/leagues");
    expect(rewrite("/v2/leagues", "127.0.0.1")).toBe("/v2/leagues");
    expect(rewrite("/v2/leagues", "LOCALHOST:8787")).toBe(`${UNROUTABLE}/v2/leagues`);
    expect(rewrite("/v2/leagues", undefined)).toBe("/v2/leagues");
  });

  it("serves the root on every host when there are no data hosts", () => {
    const rootOnly = createUrlRewriter("/observatory", []);
    expect(rootOnly("/v2/leagues", "localhost")).toBe("/v2/leagues");
    expect(rootOnly("/observatory/v2/leagues", "localhost")).toBe(
      `${UNROUTABLE}/observatory/v2/leagues`,
    );
  });

  it("reads host names with ports and IPv6", () => {
    expect(hostnameOf("[::1]:8787")).toBe("[::1]");
    expect(hostnameOf("LocalHost:1")).toBe("localhost");
  });
});

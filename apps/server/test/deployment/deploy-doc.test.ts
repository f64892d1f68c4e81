// docs/deploy.md shows the load balancer's configuration the reference deployment's end-to-end
// test runs (haproxy-config.ts), with the guide's example addresses: the two must not drift.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { DOCUMENTED_HAPROXY, haproxyConfig } from "../../testing/deployment/haproxy-config.ts";

const DEPLOY_MD = join(import.meta.dirname, "../../../../docs/deploy.md");

describe("docs/deploy.md", () => {
  it("shows the HAProxy configuration the reference deployment test runs", () => {
    const doc = readFileSync(DEPLOY_MD, "utf8");
    const block = /```haproxy\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block, "a ```haproxy block in docs/deploy.md").toBeDefined();
    expect(block).toBe(haproxyConfig(DOCUMENTED_HAPROXY));
  });
});

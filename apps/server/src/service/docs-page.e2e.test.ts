// The reference page in a real browser: everything it loads comes from this server, the
// vendor's hosted features are absent, the sidebar lists the groups that have operations, and
// Markdown renders.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { tags as specTags } from "@gauntlet/core";

import { launchTestBrowser } from "../../testing/browser.ts";
import { PATIENCE_MS } from "../../testing/patience.ts";
import { startTestServer, type TestServer } from "../../testing/start-server.ts";

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer();
  browser = await launchTestBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Visit {
  page: Page;
  requests: string[];
  violations: () => Promise<string[]>;
}

async function visit(url: string): Promise<Visit> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  // What the Content-Security-Policy blocked on its way out: a call the page tried to make
  // elsewhere. (Blocked `eval` is zod's probe for code generation, which then does without.)
  await page.addInitScript({
    content: `window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => {
        if (/^(https?|wss?):/.test(e.blockedURI)) window.cspViolations.push(e.violatedDirective + " " + e.blockedURI);
      });`,
  });
  await page.goto(url);
  // The reference has rendered once the sidebar shows an operation.
  await page
    .getByText("Create a player", { exact: true })
    .first()
    .waitFor({ timeout: PATIENCE_MS });
  return { page, requests, violations: () => page.evaluate<string[]>("window.cspViolations") };
}

describe("the /docs reference in a browser", () => {
  it("loads everything from this server and tries no outside call", async () => {
    const { page, requests, violations } = await visit(`${t.url}/docs`);
    const origin = new URL(t.url).origin;
    expect(requests.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin)).toEqual(
      [],
    );
    expect(requests.map((u) => new URL(u).pathname)).toEqual(
      expect.arrayContaining(["/docs", "/docs/scalar.js", "/openapi.json"]),
    );
    expect(await violations()).toEqual([]);
    await page.close();
  });

  it("shows none of the vendor's hosted features", async () => {
    const { page } = await visit(`${t.url}/docs`);
    const controls = (await page.locator("button, a, [role=button]").allInnerTexts()).map(
      (text) => text.trim().split("\n")[0],
    );
    expect(controls).toContain("Test Request");
    for (const label of [
      "Ask AI",
      "Generate MCP",
      "Deploy",
      "Share",
      "Configure",
      "Developer Tools",
      "Open API Client",
    ])
      expect(controls, label).not.toContain(label);
    await page.close();
  });

  it("lists in the sidebar exactly the groups that have operations, and renders Markdown", async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as {
      tags: { name: string }[];
    };
    const documented = new Set(doc.tags.map((tag) => tag.name));
    const { page } = await visit(`${t.url}/docs`);
    const sidebar = await page.locator(".t-doc__sidebar").innerText();
    const entries = new Set(sidebar.split("\n").map((line) => line.trim()));
    for (const tag of specTags) expect(entries.has(tag), tag).toBe(documented.has(tag));
    expect(sidebar).not.toContain("`");
    expect(sidebar).toContain("A 24-hour ply_ token acting as the player");
    // The introduction's `x-rate-limit` is code, not text between backticks.
    expect(await page.locator("code", { hasText: "x-rate-limit" }).count()).toBeGreaterThan(0);
    expect(await page.locator("body").innerText()).not.toContain("`x-rate-limit`");
    await page.close();
  });

  it("takes /docs/ to the reference, at the root and under the data host's prefix", async () => {
    const { page } = await visit(`${t.url}/docs/`);
    expect(page.url()).toBe(`${t.url}/docs`);
    await page.close();
    const prefixed = await fetch(`${t.dataUrl}/docs/`, { redirect: "manual" });
    expect(prefixed.status).toBe(301);
    expect(new URL(prefixed.headers.get("location") ?? "", `${t.dataUrl}/docs/`).href).toBe(
      `${t.dataUrl}/docs`,
    );
  });
});

import { cleanup } from "ink-testing-library";
import { createElement as h } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { lines, renderAt } from "../../testing/ink.ts";
import { connectionLabel } from "./connection-badge.ts";
import { Header } from "./header.ts";

afterEach(cleanup);

describe("the header", () => {
  it("shows where you are, the connection and the server", async () => {
    const header = renderAt(
      h(Header, {
        crumbs: ["Spring League", "Premier"],
        connection: { kind: "live" },
        playing: true,
        server: "http://127.0.0.1:8787",
        width: 100,
      }),
      100,
      5,
    );
    const frame = await header.waitFor("the header", (f) => f.includes("Premier"));
    expect(lines(frame)[0]).toMatch(
      /^gauntlet ▸ Spring League ▸ Premier\s+● live {2}http:\/\/127\.0\.0\.1:8787$/,
    );
  });

  it("drops the server on a narrow terminal but keeps the connection", async () => {
    const header = renderAt(
      h(Header, {
        crumbs: ["Spring League", "Premier"],
        connection: { kind: "polling", everyMs: 4000 },
        playing: true,
        server: "http://127.0.0.1:8787",
        width: 60,
      }),
      60,
      5,
    );
    const frame = await header.waitFor("the header", (f) => f.includes("polling"));
    expect(frame).not.toContain("8787");
    expect(lines(frame)[0]).toMatch(/◐ polling every 4s$/);
  });

  it("names every connection state", () => {
    expect(
      [
        { kind: "live" },
        { kind: "connecting" },
        { kind: "polling", everyMs: 12_400 },
        { kind: "stopped" },
      ].map((s) => connectionLabel(s as Parameters<typeof connectionLabel>[0], true)),
    ).toEqual(["● live", "◌ connecting", "◐ polling every 12s", "○ idle"]);
  });

  it("says live only while the division has a round in play", async () => {
    const header = renderAt(
      h(Header, {
        crumbs: ["GridRush demo league", "Premier"],
        connection: { kind: "live" },
        playing: false,
        server: "http://127.0.0.1:8787",
        width: 100,
      }),
      100,
      5,
    );
    const frame = await header.waitFor("the header", (f) => f.includes("Premier"));
    expect(lines(frame)[0]).toMatch(/Premier\s+● connected · quiet {2}http/);
    expect(frame).not.toContain("live");
  });
});

import { describe, expect, it } from "vitest";

import { visibleFetch } from "./visible-fetch.ts";

const answer = (body: string, type: string) => () =>
  Promise.resolve(new Response(body, { status: 200, headers: { "content-type": type } }));

describe("the terminal UI's fetch", () => {
  it("makes control characters in a JSON answer visible, names and all", async () => {
    const evil = JSON.stringify({ name: "Ada\u001b]0;pwned\u0007", rows: [{ p: "\u202eZed" }] });
    const res = await visibleFetch(answer(evil, "application/json; charset=utf-8"))("http://x/");
    expect(await res.json()).toEqual({
      name: "Ada\\x1b]0;pwned\\x07",
      rows: [{ p: "\\u202eZed" }],
    });
    expect(res.status).toBe(200);
  });

  it("leaves other answers as they were", async () => {
    const res = await visibleFetch(answer("plain \u001b", "text/plain"))("http://x/");
    expect(await res.text()).toBe("plain \u001b");
  });
});

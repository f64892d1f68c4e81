import { describe, expect, it } from "vitest";

import { CappedLog } from "./capped-log.ts";

describe("CappedLog", () => {
  it("keeps everything under the cap", () => {
    const log = new CappedLog(100);
    log.append(Buffer.from("hello "));
    log.append(Buffer.from("world\n"));
    expect(log.text()).toBe("hello world\n");
  });

  it("keeps the first and the latest bytes past the cap, and says how many it dropped", () => {
    const log = new CappedLog(20);
    for (let i = 0; i < 100; i += 1) log.append(Buffer.from(String(i % 10)));
    const text = log.text();
    expect(text.startsWith("0123456789")).toBe(true);
    expect(text.endsWith("0123456789")).toBe(true);
    expect(text).toContain("80 bytes dropped");
  });

  it("caps a single chunk larger than the cap", () => {
    const log = new CappedLog(10);
    log.append(Buffer.from("a".repeat(5) + "b".repeat(1000) + "c".repeat(5)));
    expect(log.text()).toBe(`aaaaa\n[… 1000 bytes dropped …]\nccccc`);
  });
});

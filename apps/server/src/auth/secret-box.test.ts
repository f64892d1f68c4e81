import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { SecretBox } from "./secret-box.ts";

describe("SecretBox", () => {
  const box = new SecretBox(randomBytes(32));

  it("round-trips a value and never stores it in the clear", () => {
    const sealed = box.seal("hunter2-api-key");
    expect(sealed).not.toContain("hunter2");
    expect(box.open(sealed)).toBe("hunter2-api-key");
  });

  it("refuses a tampered value and another key", () => {
    const sealed = box.seal("value");
    const parts = sealed.split(".");
    const tampered = [parts[0], parts[1], parts[2], Buffer.from("other").toString("base64")].join(
      ".",
    );
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});

import { createServer } from "node:net";

import { describe, expect, it } from "vitest";

import { ephemeralStart, holdPort } from "./ports.ts";

describe("holdPort", () => {
  it("never hands out a port from the kernel's ephemeral range, nor one another episode holds", async () => {
    const held = await Promise.all(Array.from({ length: 50 }, () => holdPort()));
    const ports = held.map((h) => h.port);
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart());
    for (const h of held) h.release();
  });

  it("hands out a port the game can bind", async () => {
    const { port, release } = await holdPort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
    release();
  });
});

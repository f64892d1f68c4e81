import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { inspectTarGz, packDirectory } from "./tarball.ts";

const dir = mkdtempSync(join(tmpdir(), "gauntlet-tar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tar.gz bundles", () => {
  it("packs a directory without node_modules and lists it back", async () => {
    mkdirSync(join(dir, "game"), { recursive: true });
    mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
    writeFileSync(join(dir, "game", "server.ts"), "export {};\n");
    writeFileSync(join(dir, "node_modules", "x", "index.js"), "");
    const bytes = await packDirectory(dir);
    const listing = await inspectTarGz(bytes);
    expect(listing).toEqual({ ok: true, files: ["./game/server.ts"] });
  });

  it("refuses bytes that are not a gzip tar", async () => {
    expect(await inspectTarGz(Buffer.from("plain text"))).toEqual({
      ok: false,
      error: "the bytes are not gzip",
    });
    const notTar = await inspectTarGz(
      gzipSync(Buffer.from("gzip but not tar, long enough to be read as a header ".repeat(20))),
    );
    expect(notTar.ok).toBe(false);
  });
});

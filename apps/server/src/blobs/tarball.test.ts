import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { gzipBomb, tarGz, type RawEntry } from "../../testing/tar-bytes.ts";
import { DEFAULT_TAR_BUDGETS } from "./tar-inspect.ts";
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

const file = (path: string, body = "x"): RawEntry => ({ path, body: Buffer.from(body) });

describe("inspecting an archive refuses what the runner would refuse, naming the entry", () => {
  const long = "a".repeat(5000);
  it.each([
    [
      "a symbolic link",
      { path: "link", type: "2", linkTarget: "/etc/passwd" },
      'entry "link" is a SymbolicLink',
    ],
    ["a hard link", { path: "hard", type: "1", linkTarget: "run.sh" }, 'entry "hard" is a Link'],
    ["a device", { path: "dev", type: "3" }, 'entry "dev" is a CharacterDevice'],
    ["a backslash", file("dir\\run.sh"), 'entry "dir\\\\run.sh" has a backslash in its name'],
    ["an absolute path", file("/etc/cron.d/x"), 'entry "/etc/cron.d/x" has an absolute path'],
    ["a climb out", file("a/../../x"), 'entry "a/../../x" climbs out of the bundle with ..'],
    ["a 5,000-character name", file(long), "has a path longer than 1024 bytes"],
    ["a 300-character name", file(`d/${"b".repeat(300)}`), "has a name longer than 255 bytes"],
  ] as [string, RawEntry, string][])("%s", async (_what, entry, message) => {
    const listing = await inspectTarGz(tarGz([file("run.sh"), entry]));
    expect(listing.ok).toBe(false);
    expect(listing.ok ? "" : listing.error).toContain(message);
  });

  it("lists a plain archive's files", async () => {
    expect(await inspectTarGz(tarGz([{ path: "d", type: "5" }, file("d/run.sh")]))).toEqual({
      ok: true,
      files: ["d/run.sh"],
    });
  });
});

describe("inspecting an archive within budgets", () => {
  it("stops a bomb at the ratio budget, before it inflates", async () => {
    // 64 MiB of zeros in about 64 KiB: past 100× its size, and past the 16 MiB floor.
    const bomb = gzipBomb(8 << 20, 8);
    const listing = await inspectTarGz(bomb);
    expect(listing).toEqual({
      ok: false,
      error: `the archive unpacks to more than 100 times its size (${16 << 20} bytes)`,
    });
  });

  it("stops at the byte budget, the entry budget and the time budget", async () => {
    const threeFiles = tarGz([file("a"), file("b"), file("c")]);
    expect(await inspectTarGz(threeFiles, { ...DEFAULT_TAR_BUDGETS, maxEntries: 2 })).toEqual({
      ok: false,
      error: "the archive holds more than 2 entries",
    });
    const big = tarGz([{ path: "big", body: Buffer.alloc(1 << 20, 1) }]);
    expect(
      await inspectTarGz(big, { ...DEFAULT_TAR_BUDGETS, maxBytes: 1 << 19, maxRatio: 1e6 }),
    ).toEqual({ ok: false, error: `the archive unpacks to more than ${1 << 19} bytes` });
    const slow = await inspectTarGz(gzipBomb(8 << 20, 8), {
      ...DEFAULT_TAR_BUDGETS,
      maxRatio: 1e6,
      timeMs: 5,
    });
    expect(slow).toEqual({
      ok: false,
      error: "inspecting the archive took longer than the time budget of 5 ms and was stopped",
    });
  });

  it("inflates off the event loop: timers keep their pace while 512 MiB of zeros are read", async () => {
    const bomb = gzipBomb(64 << 20, 8);
    let worst = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const listing = await inspectTarGz(bomb, {
      ...DEFAULT_TAR_BUDGETS,
      maxRatio: 1e6,
      timeMs: 60_000,
    });
    clearInterval(tick);
    expect(listing).toEqual({ ok: true, files: ["zeros.bin"] });
    // Inflating on the main thread held timers for seconds; in a worker they stay near 5 ms.
    expect(worst).toBeLessThan(250);
  }, 60_000);
});

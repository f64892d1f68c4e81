// The data directory is the server's alone: made owner-only by a started server, and an older
// install's loose permissions tightened when it starts again.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { startTestServer } from "../../testing/start-server.ts";
import { gridrushBundle } from "../../testing/test-league.ts";
import { tightenDataDir } from "./private-files.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every directory and file under `dir`, with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => {
    const path = join(entry.parentPath, entry.name);
    return { path, dir: entry.isDirectory(), mode: modeOf(path) };
  });
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the data directory at rest", () => {
  it("is owner-only on a started server: the directory, the database and its companions, the key, blobs", async () => {
    const t = await startTestServer({ env: { GAUNTLET_SCHEDULER: "off" } });
    try {
      const user = await t.newUser();
      // A bundle uploaded over HTTP lands in the blob store.
      const upload = await fetch(`${t.url}/v2/policy-bundles/upload`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${user.token}`,
          "content-type": "application/octet-stream",
        },
        body: await gridrushBundle(),
      });
      expect(upload.status, await upload.text()).toBe(201);
      const dataDir = t.testStore.dataDir;
      expect(modeOf(dataDir)).toBe(0o700);
      const entries = modes(dataDir).filter((e) => !e.path.includes(`${dataDir}/runner`));
      // The database is a file here only on SQLite (the PostgreSQL suite keeps it elsewhere).
      const sqlite = t.testStore.databaseUrl ? [] : [join(dataDir, "gauntlet.sqlite")];
      expect(entries.map((e) => e.path)).toEqual(
        expect.arrayContaining([...sqlite, join(dataDir, "secret.key"), join(dataDir, "blobs")]),
      );
      const loose = entries.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600));
      expect(loose).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("tightens an install made with loose permissions", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-loose-"));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755);
    for (const name of ["gauntlet.sqlite", "gauntlet.sqlite-wal", "first-admin.txt", "secret.key"])
      writeFileSync(join(dataDir, name), "x", { mode: 0o644 });
    const blobDir = join(dataDir, "blobs", "ab", "cd");
    mkdirSync(blobDir, { recursive: true, mode: 0o755 });
    writeFileSync(join(blobDir, "abcd1234"), "bundle", { mode: 0o644 });
    tightenDataDir(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modes(dataDir).filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))).toEqual([]);
  });
});

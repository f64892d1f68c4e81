// The first admin's password reaches the operator whatever the store (PostgreSQL in the
// PostgreSQL suite): saved owner-only in the data directory of the replica that created the
// admin, named in the banner, and written by one replica only when several start on one store.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestStore, type TestStore } from "../../testing/test-store.ts";
import { bannerLines } from "../cli/banner.ts";
import { ensureFirstAdmin, FIRST_ADMIN_EMAIL, type FirstAdmin } from "./first-admin.ts";
import { checkPassword } from "./users.ts";

describe(`the first admin on ${process.env.DATABASE_URL ? "PostgreSQL" : "SQLite"}`, () => {
  let shared: TestStore;
  let otherDataDir: string;
  let first: FirstAdmin | null;
  let second: FirstAdmin | null;
  beforeAll(async () => {
    shared = await createTestStore();
    await shared.store.migrate();
    otherDataDir = mkdtempSync(join(tmpdir(), "gauntlet-replica-"));
    // Two replicas of one store starting together, each with its own data directory.
    [first, second] = await Promise.all([
      ensureFirstAdmin(shared.store, shared.dataDir),
      ensureFirstAdmin(shared.store, otherDataDir),
    ]);
  });
  afterAll(async () => {
    await shared?.cleanup();
    if (otherDataDir) rmSync(otherDataDir, { recursive: true, force: true });
  });

  it("is created by one replica, which saves the password owner-only in its data directory", async () => {
    const created = [first, second].filter((admin) => admin !== null);
    expect(created).toHaveLength(1);
    const admin = created[0];
    if (!admin) throw new Error("no replica created the first admin");
    const dir = admin === first ? shared.dataDir : otherDataDir;
    expect(admin.credentialsFile).toBe(join(dir, "first-admin.txt"));
    expect(statSync(admin.credentialsFile).mode & 0o777).toBe(0o600);
    const saved = readFileSync(admin.credentialsFile, "utf8");
    expect(saved).toBe(`email: ${FIRST_ADMIN_EMAIL}\npassword: ${admin.password}\n`);
    expect((await checkPassword(shared.store.db, FIRST_ADMIN_EMAIL, admin.password))?.email).toBe(
      FIRST_ADMIN_EMAIL,
    );
    // The other replica wrote nothing: there is one password, in one place.
    const other = admin === first ? otherDataDir : shared.dataDir;
    expect(existsSync(join(other, "first-admin.txt"))).toBe(false);
  });

  it("is named in the banner with the file that keeps the password", () => {
    const admin = first ?? second;
    if (!admin) throw new Error("no replica created the first admin");
    const text = bannerLines({
      apiPrefix: "/observatory",
      url: "http://127.0.0.1:1",
      dataUrl: "http://localhost:1/observatory",
      storage: { engine: shared.store.engine, location: "test" },
      firstAdmin: admin,
      example: null,
      demo: null,
      runner: false,
      commands: { server: "gauntlet-server", runner: "gauntlet-runner" },
      storageArgs: "",
    }).join("\n");
    expect(text).toContain(`password: ${admin.password}`);
    expect(text).toContain(`in ${admin.credentialsFile})`);
  });

  it("is not created again on a later start", async () => {
    expect(await ensureFirstAdmin(shared.store, otherDataDir)).toBeNull();
  });
});

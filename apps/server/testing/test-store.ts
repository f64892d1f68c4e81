// A fresh, isolated store for one test: a temporary SQLite file, or — when DATABASE_URL is
// set — a schema of its own in that PostgreSQL database, dropped afterwards.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import pg from "pg";

import { bestEffort } from "@gauntlet/core";

import { openStore, type Store } from "../src/store/database.ts";

export interface TestStore {
  store: Store;
  dataDir: string;
  databaseUrl: string | undefined;
  pgSchema: string | undefined;
  cleanup(): Promise<void>;
}

export async function createTestStore(
  databaseUrl = process.env.DATABASE_URL || undefined,
): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "gauntlet-test-"));
  let pgSchema: string | undefined;
  if (databaseUrl) {
    pgSchema = `t_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`CREATE SCHEMA ${pgSchema}`);
    await client.end();
  }
  const store = openStore({ dataDir, databaseUrl, pgSchema, pgFastCommits: true });
  return {
    store,
    dataDir,
    databaseUrl,
    pgSchema,
    async cleanup() {
      await bestEffort(store.close());
      if (databaseUrl && pgSchema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// A fingerprint of every table of the store, to check that a rejected request changed nothing.
import { createHash } from "node:crypto";

import { sql, type Kysely } from "kysely";
import pg from "pg";

import type { Database } from "../../src/store/schema.ts";
import type { TestStore } from "../../testing/test-store.ts";

/** Columns that record a read, not a change (a token's last use). */
const BOOKKEEPING = ["last_used_at"];

export interface TableSnapshots {
  /** Each table's row count and a hash of its rows, by table name. */
  take(): Promise<Map<string, string>>;
  close(): Promise<void>;
}

/** Snapshots of the test store's tables (the audit trail left out: it records an elevated
 * admin's refused attempts too, by design). */
export async function openTableSnapshots(testStore: TestStore): Promise<TableSnapshots> {
  const { db } = testStore.store;
  // The tables do not change between the cases of a run: listed once. On PostgreSQL only this
  // store's schema (each test has its own).
  const names = (await db.introspection.getTables())
    .filter((table) => !testStore.pgSchema || table.schema === testStore.pgSchema)
    .map((table) => table.name)
    .filter((name) => !name.startsWith("kysely_") && name !== "admin_audit")
    .sort();
  if (testStore.databaseUrl && testStore.pgSchema)
    return postgresSnapshots(testStore.databaseUrl, testStore.pgSchema, names);
  return sqliteSnapshots(db, names);
}

/** SQLite: the store is one connection in this process, so a snapshot after no write on it (its
 * `total_changes()` the same, which counts every row an INSERT, UPDATE or DELETE touched, even in a
 * transaction rolled back) is the one before; after a write, every table is read and hashed. A
 * refused request mostly writes nothing: the authorization matrix took 133 s reading every table
 * twice a write, and the fuzz blocked the server as long. */
function sqliteSnapshots(db: Kysely<Database>, names: readonly string[]): TableSnapshots {
  let last: { changes: number; tables: Map<string, string> } | undefined;
  return {
    async take() {
      const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(db);
      const changes = Number(rows[0]?.n);
      if (last && last.changes === changes) return new Map(last.tables);
      const tables = await rowFingerprints(db, names);
      last = { changes, tables };
      return new Map(tables);
    },
    close: async () => undefined,
  };
}

/** PostgreSQL: every table hashed by the server in one prepared statement, on a connection of
 * its own. Read and hashed here, a table a round trip, and planned anew each time, a snapshot
 * took 25–40 ms, which made the fuzz and the authorization matrix five times slower there than
 * on SQLite; prepared once, 1–3 ms. */
async function postgresSnapshots(
  url: string,
  schema: string,
  names: readonly string[],
): Promise<TableSnapshots> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set search_path to ${pg.escapeIdentifier(schema)}`);
  const row = `(to_jsonb(t) ${BOOKKEEPING.map((c) => `- ${pg.escapeLiteral(c)}`).join(" ")})::text`;
  const text = names
    .map(
      (name) =>
        `select ${pg.escapeLiteral(name)}::text as name, count(*)::int as n, coalesce(md5(string_agg(${row}, E'\\n' order by ${row})), '') as h from ${pg.escapeIdentifier(name)} t`,
    )
    .join(" union all ");
  return {
    async take() {
      const out = new Map<string, string>();
      if (names.length === 0) return out;
      const { rows } = await client.query<{ name: string; n: number; h: string }>({
        name: "table-snapshot",
        text,
      });
      for (const r of rows) out.set(r.name, `${r.n}:${r.h.slice(0, 16)}`);
      return out;
    },
    close: () => client.end(),
  };
}

/** Each table's rows read and hashed here. */
async function rowFingerprints(
  db: Kysely<Database>,
  names: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of names) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      db,
    );
    const hash = createHash("sha256");
    const lines = rows
      .map((row) =>
        JSON.stringify(
          Object.entries(row)
            .filter(([k]) => !BOOKKEEPING.includes(k))
            .sort(([a], [b]) => a.localeCompare(b)),
        ),
      )
      .sort();
    for (const line of lines) hash.update(line).update("\n");
    out.set(name, `${rows.length}:${hash.digest("hex").slice(0, 16)}`);
  }
  return out;
}

/** The tables whose fingerprint differs between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

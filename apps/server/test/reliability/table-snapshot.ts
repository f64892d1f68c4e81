// A fingerprint of every table of the store, to check that a rejected request changed nothing.
import { createHash } from "node:crypto";

import { sql, type Kysely } from "kysely";

import type { Database } from "../../src/store/schema.ts";

/** Columns that record a read, not a change (a token's last use). */
const BOOKKEEPING = new Set(["last_used_at"]);

export async function tableFingerprints(db: Kysely<Database>): Promise<Map<string, string>> {
  // On PostgreSQL only this store's schema (each test has its own); SQLite has no schemas.
  const current = await sql<{ s: string }>`select current_schema() as s`.execute(db).then(
    (r) => r.rows[0]?.s,
    () => undefined,
  );
  const tables = (await db.introspection.getTables()).filter(
    (table) => !current || !table.schema || table.schema === current,
  );
  const out = new Map<string, string>();
  for (const table of tables) {
    // The audit trail records an elevated admin's refused attempts too, by design.
    if (table.name.startsWith("kysely_") || table.name === "admin_audit") continue;
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)}`.execute(db);
    const hash = createHash("sha256");
    const lines = rows
      .map((row) =>
        JSON.stringify(
          Object.entries(row)
            .filter(([k]) => !BOOKKEEPING.has(k))
            .sort(([a], [b]) => a.localeCompare(b)),
        ),
      )
      .sort();
    for (const line of lines) hash.update(line).update("\n");
    out.set(table.name, `${rows.length}:${hash.digest("hex").slice(0, 16)}`);
  }
  return out;
}

/** The tables whose fingerprint differs between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

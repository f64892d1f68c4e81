// Opens the store: SQLite in the data directory by default, PostgreSQL when a URL is given.
import { join } from "node:path";

import { Kysely, sql, SqliteDialect } from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";

import { migrationProvider } from "./migrations/index.ts";
import { NodeSqliteDatabase } from "./node-sqlite-database.ts";
import { OwnSchemaPostgresDialect } from "./own-schema-introspector.ts";
import { ensurePrivateDir, ensurePrivateFile } from "./private-files.ts";
import type { Database } from "./schema.ts";

export type Engine = "sqlite" | "postgres";

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (tests isolate themselves in one each). */
  pgSchema?: string | undefined;
  /**
   * PostgreSQL commits without waiting for the disk (`synchronous_commit=off`): for stores a
   * test throws away, whose commits otherwise queue behind every other process's disk writes.
   */
  pgFastCommits?: boolean;
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** Where the store lives, for logs (never includes a password). */
  readonly location: string;
  migrate(): Promise<void>;
  /** Whether a migration has yet to be applied (an empty store has all of them pending). */
  hasPendingMigrations(): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const settings = [
      ...(options.pgSchema ? [`-c search_path=${options.pgSchema}`] : []),
      ...(options.pgFastCommits ? ["-c synchronous_commit=off"] : []),
    ];
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(settings.length > 0 ? { options: settings.join(" ") } : {}),
    });
    // An idle connection the database drops (a restart) is an 'error' on the pool; unhandled, it
    // would end the process. The pool discards that client; requests meanwhile answer 503.
    pool.on("error", (error) =>
      process.stderr.write(`gauntlet-server: database connection lost: ${error.message}\n`),
    );
    const schema = options.pgSchema ?? "public";
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }, schema) });
    return makeStore(db, "postgres", redactUrl(options.databaseUrl), schema);
  }
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, "gauntlet.sqlite");
  ensurePrivateFile(file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new NodeSqliteDatabase(file) }),
  });
  return makeStore(db, "sqlite", file, undefined);
}

function makeStore(
  db: Kysely<Database>,
  engine: Engine,
  location: string,
  migrationSchema: string | undefined,
): Store {
  // The migration tables live in the store's own schema: looked up by name alone, another
  // schema's lock table (several test schemas in one database) would be mistaken for ours.
  const migrator = () =>
    new Migrator({
      db,
      provider: migrationProvider,
      ...(migrationSchema ? { migrationTableSchema: migrationSchema } : {}),
    });
  return {
    db,
    engine,
    location,
    async migrate() {
      if (engine === "postgres" && migrationSchema && migrationSchema !== "public")
        await sql`create schema if not exists ${sql.id(migrationSchema)}`.execute(db);
      const { error, results } = await migrator().migrateToLatest();
      const failed = results?.find((r) => r.status === "Error");
      if (error || failed) {
        const reason =
          error instanceof Error
            ? error.message
            : typeof error === "string"
              ? error
              : JSON.stringify(error ?? "");
        throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${reason}`);
      }
    },
    async hasPendingMigrations() {
      // Reads the migration table only (creates nothing, takes no lock).
      return (await migrator().getMigrations()).some((m) => m.executedAt === undefined);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

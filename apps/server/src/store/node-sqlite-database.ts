// Adapts Node's built-in `node:sqlite` to the database interface Kysely's SqliteDialect
// expects (the better-sqlite3 shape). Built in, so the embedded default needs no native
// addon build on install (docs/architecture.md, "Chosen dependencies, and why").
import { DatabaseSync, type StatementSync } from "node:sqlite";

import type { SqliteDatabase, SqliteStatement } from "kysely";

type Bindable = null | number | bigint | string | Uint8Array;

function bindable(values: ReadonlyArray<unknown>): Bindable[] {
  return values.map((v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === "boolean") return v ? 1 : 0;
    if (
      typeof v === "number" ||
      typeof v === "bigint" ||
      typeof v === "string" ||
      v instanceof Uint8Array
    )
      return v;
    if (v instanceof Date) return v.toISOString();
    return JSON.stringify(v);
  });
}

class Statement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...bindable(parameters));
  }

  run(parameters: ReadonlyArray<unknown>): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    return this.#stmt.run(...bindable(parameters));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...bindable(parameters));
  }
}

/** Prepared statements kept per SQL text: preparing is a parse and plan per query otherwise. */
const STATEMENT_CACHE = 256;

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, Statement>();

  constructor(path: string) {
    this.#db = new DatabaseSync(path);
    // WAL lets the admin commands write while a server holds the same file open.
    this.#db.exec(
      "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
    );
  }

  prepare(sql: string): SqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) return cached;
    const statement = new Statement(this.#db.prepare(sql));
    if (this.#statements.size >= STATEMENT_CACHE) {
      // The oldest prepared goes first (a Map iterates in insertion order).
      const oldest = this.#statements.keys().next();
      if (!oldest.done) this.#statements.delete(oldest.value);
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }
}

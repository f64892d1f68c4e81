// PostgreSQL introspection of the store's own schema only (the migrator asks whether its tables
// exist). Kysely's own reads every schema of the database, through functions that fail when a
// schema is dropped meanwhile ("schema ... does not exist"): a replica starting while anything
// else in a shared database drops a schema failed its migration (CI: test files in parallel,
// each in a schema of its own).
import {
  PostgresDialect,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from "kysely";

/** Kysely's migration tables, left out unless asked for (as Kysely's introspector does). */
const MIGRATION_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

interface ColumnRow {
  table: string;
  kind: string;
  column: string | null;
  type: string | null;
  type_schema: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
  serial: string | null;
}

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schema: string;

  constructor(db: Kysely<unknown>, schema: string) {
    this.#db = db;
    this.#schema = schema;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace where nspname = ${this.#schema}`.execute(
      this.#db,
    );
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, a.attname as "column",
        t.typname as type, tns.nspname as type_schema,
        a.attnotnull as not_null, a.atthasdef as has_default,
        case when a.attname is null then null else pg_get_serial_sequence(
          quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) end as serial
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      left join pg_catalog.pg_attribute a
        on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = ${this.#schema} and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, { kind: string; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && MIGRATION_TABLES.has(row.table)) continue;
      const table = tables.get(row.table) ?? { kind: row.kind, columns: [] };
      tables.set(row.table, table);
      if (row.column !== null)
        table.columns.push({
          name: row.column,
          dataType: row.type ?? "",
          ...(row.type_schema ? { dataTypeSchema: row.type_schema } : {}),
          isNullable: row.not_null !== true,
          isAutoIncrementing: row.serial !== null,
          hasDefaultValue: row.has_default === true,
        });
    }
    return [...tables].map(([name, { kind, columns }]) => ({
      name,
      isView: kind === "v",
      isForeign: kind === "f",
      schema: this.#schema,
      columns,
    }));
  }
}

/** PostgreSQL whose introspection sees the store's own schema only. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;

  constructor(config: PostgresDialectConfig, schema: string) {
    super(config);
    this.#schema = schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.#schema);
  }
}

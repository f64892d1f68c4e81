// Reporters: registration, keys (shown once, only their SHA-256 hash kept), listing.
import { sql, type Kysely } from "kysely";

import {
  newId,
  ReporterOutputDecl,
  type BodyOf,
  type ListReportersQuery,
  type RegisteredReporter,
  type Reporter,
  type RotatedReporterKey,
} from "@gauntlet/core";

import { ownsAsPersonOrAdmin } from "../access/ownership.ts";
import { actsAsUser, type AuthenticatedIdentity } from "../auth/identity.ts";
import { hashToken, newSecret, tokenPrefixes } from "../auth/secrets.ts";
import { nowIso, parseJson } from "../shared/clock.ts";
import { forbidden, notFound } from "../shared/errors.ts";
import type { Database, ReportersTable } from "../store/schema.ts";

type Counts = {
  run_count: number | string | bigint | null;
  output_count: number | string | bigint | null;
};

/** The stored outputs contract; entries that do not parse as declarations are left out. */
function declaredOutputs(text: string | null): Reporter["outputs"] {
  if (text === null) return [];
  const entries = parseJson<unknown[]>(text);
  return entries.flatMap((entry) => {
    const parsed = ReporterOutputDecl.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

function toReporter(row: ReportersTable & Counts): Reporter {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name ?? row.name,
    description: row.description ?? "",
    type: row.type,
    mode: row.mode,
    user_id: row.user_id,
    created: row.created_at,
    created_at: row.created_at,
    key_rotated_at: row.key_rotated_at,
    outputs: declaredOutputs(row.outputs),
    run_count: Number(row.run_count ?? 0),
    output_count: Number(row.output_count ?? 0),
  };
}

/** Reporter rows with their run and output counts (PostgreSQL counts come back as strings). */
function reporterRows(db: Kysely<Database>) {
  return db
    .selectFrom("reporters")
    .selectAll("reporters")
    .select((eb) => [
      eb
        .selectFrom("reporter_runs")
        .select((c) => c.fn.countAll<number>().as("n"))
        .whereRef("reporter_runs.reporter_id", "=", "reporters.id")
        .as("run_count"),
      eb
        .selectFrom("reporter_outputs")
        .select((c) => c.fn.countAll<number>().as("n"))
        .whereRef("reporter_outputs.reporter_id", "=", "reporters.id")
        .as("output_count"),
    ]);
}

export async function getReporter(db: Kysely<Database>, reporterId: string): Promise<Reporter> {
  const row = await reporterRows(db).where("reporters.id", "=", reporterId).executeTakeFirst();
  if (!row) throw notFound("reporter", reporterId);
  return toReporter(row);
}

/** The reporter, when the caller owns it (or is an admin); 404 to anyone else. */
export async function ownedReporter(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  reporterId: string,
): Promise<ReportersTable> {
  const row = await db
    .selectFrom("reporters")
    .selectAll()
    .where("id", "=", reporterId)
    .executeTakeFirst();
  if (!row || !ownsAsPersonOrAdmin(identity, row.user_id)) throw notFound("reporter", reporterId);
  return row;
}

/**
 * An upsert by name among the caller's own reporters (the hosted upload client registers on
 * every upload): a new name gets a key, shown once; an existing one takes the fields sent.
 */
export async function registerReporter(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  input: BodyOf<"registerReporter">,
): Promise<RegisteredReporter> {
  if (!actsAsUser(identity)) throw forbidden("Reporters are registered with a user token.");
  const outputs = input.outputs === undefined ? undefined : JSON.stringify(input.outputs);
  const existing = await db
    .selectFrom("reporters")
    .select("id")
    .where("user_id", "=", identity.userId)
    .where("name", "=", input.name)
    .orderBy("created_at")
    .orderBy("id")
    .executeTakeFirst();
  if (existing) {
    const set: Partial<ReportersTable> = {};
    if (input.display_name !== undefined) set.display_name = input.display_name;
    if (input.description !== undefined) set.description = input.description;
    if (input.type !== undefined) set.type = input.type;
    if (input.mode !== undefined) set.mode = input.mode;
    if (outputs !== undefined) set.outputs = outputs;
    if (Object.keys(set).length > 0)
      await db.updateTable("reporters").set(set).where("id", "=", existing.id).execute();
    return { ...(await getReporter(db, existing.id)), created: false, reporter_key: null };
  }
  const key = newSecret(tokenPrefixes.reporter);
  const row: ReportersTable = {
    id: newId("reporter"),
    user_id: identity.userId,
    name: input.name,
    description: input.description ?? null,
    type: input.type ?? "general",
    mode: input.mode ?? "manual",
    key_hash: hashToken(key),
    created_at: nowIso(),
    key_rotated_at: null,
    display_name: input.display_name ?? null,
    outputs: outputs ?? null,
  };
  await db.insertInto("reporters").values(row).execute();
  return {
    ...toReporter({ ...row, run_count: 0, output_count: 0 }),
    created: true,
    reporter_key: key,
  };
}

/** A new key; the conditional update replaces the hash, so the old key fails from now on. */
export async function rotateReporterKey(
  db: Kysely<Database>,
  identity: AuthenticatedIdentity,
  reporterId: string,
): Promise<RotatedReporterKey> {
  await ownedReporter(db, identity, reporterId);
  const key = newSecret(tokenPrefixes.reporter);
  await db
    .updateTable("reporters")
    .set({ key_hash: hashToken(key), key_rotated_at: nowIso() })
    .where("id", "=", reporterId)
    .execute();
  return { ...(await getReporter(db, reporterId)), reporter_key: key };
}

export async function listReporters(
  db: Kysely<Database>,
  query: ListReportersQuery,
): Promise<Reporter[]> {
  let q = reporterRows(db).innerJoin("users", "users.id", "reporters.user_id");
  if (query.type !== undefined)
    q = q.where("reporters.type", "in", typeof query.type === "string" ? [query.type] : query.type);
  if (query.mode !== undefined && query.mode !== "all")
    q = q.where("reporters.mode", "=", query.mode);
  if (query.author !== undefined) {
    const author = query.author;
    q = q.where((eb) =>
      eb.or([
        eb("reporters.user_id", "=", author),
        eb(sql<string>`lower(users.email)`, "=", author.toLowerCase()),
      ]),
    );
  }
  for (const word of (query.q ?? "").toLowerCase().split(/\s+/).filter(Boolean)) {
    // LIKE with escaped wildcards: a search word is literal text.
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql<string>`lower(reporters.name)`, "like", sql<string>`${pattern} escape '\\'`),
        eb(
          sql<string>`lower(coalesce(reporters.description, ''))`,
          "like",
          sql<string>`${pattern} escape '\\'`,
        ),
      ]),
    );
  }
  const rows = await q
    .orderBy("reporters.created_at", "desc")
    .orderBy("reporters.id", "desc")
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return rows.map(toReporter);
}

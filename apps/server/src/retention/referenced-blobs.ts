// Every blob a row names. The compaction deletes only blobs outside this set, so a table that
// keeps a blob's hash must be read here (retention.test.ts checks that every hash column of the
// schema is).
import type { Kysely } from "kysely";

import type { Database } from "../store/schema.ts";

const HASH = /[0-9a-f]{64}/g;

/** The hash columns read below, by table (the test compares them with the schema). */
export const HASH_COLUMNS = {
  uploads: ["sha256"],
  coworlds: ["bundle_sha256", "manifest"],
  artifacts: ["sha256"],
  bulk_uploads: ["sha256"],
  content_uploads: ["content_hash"],
  reporter_versions: ["content_hash"],
  reporter_outputs: ["content_hash"],
  play_modules: ["sha256"],
  play_module_files: ["sha256"],
  policy_submit_uploads: ["sha256"],
} as const;

export async function referencedBlobs(db: Kysely<Database>): Promise<Set<string>> {
  const out = new Set<string>();
  // Hashes may be written `sha256:<hex>` (the hosted service's bundle references) and a
  // manifest may name bundles inside its JSON: every 64-hex run in these columns counts.
  const add = (value: string | null) => {
    if (value) for (const match of value.toLowerCase().matchAll(HASH)) out.add(match[0]);
  };
  for (const r of await db.selectFrom("uploads").select("sha256").execute()) add(r.sha256);
  for (const r of await db.selectFrom("coworlds").select(["bundle_sha256", "manifest"]).execute()) {
    add(r.bundle_sha256);
    add(r.manifest);
  }
  for (const r of await db.selectFrom("artifacts").select("sha256").distinct().execute())
    add(r.sha256);
  for (const r of await db.selectFrom("bulk_uploads").select("sha256").execute()) add(r.sha256);
  for (const r of await db.selectFrom("content_uploads").select("content_hash").execute())
    add(r.content_hash);
  for (const r of await db.selectFrom("reporter_versions").select("content_hash").execute())
    add(r.content_hash);
  for (const r of await db.selectFrom("reporter_outputs").select("content_hash").execute())
    add(r.content_hash);
  for (const r of await db.selectFrom("play_modules").select("sha256").execute()) add(r.sha256);
  for (const r of await db.selectFrom("play_module_files").select("sha256").distinct().execute())
    add(r.sha256);
  // A cogames zip stays until its upload is completed again or expires with the row.
  for (const r of await db.selectFrom("policy_submit_uploads").select("sha256").execute())
    add(r.sha256);
  return out;
}

import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Lease-bound jobs: a lease answers a secret (kept here as a SHA-256 hash) and names the machine
// that holds it; every later report on the job must come from that machine with that secret.
// Jobs leased before this migration have neither: their runner's reports are refused as stale,
// and the lease expires into a new one.
export const leaseTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("jobs").addColumn("lease_token_hash", "text").execute();
    await db.schema.alterTable("jobs").addColumn("lease_machine_id", "text").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("jobs").dropColumn("lease_machine_id").execute();
    await db.schema.alterTable("jobs").dropColumn("lease_token_hash").execute();
  },
};

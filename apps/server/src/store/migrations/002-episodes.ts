import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Policies, coworlds and episodes run on runners. Portable column types only.
export const episodes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("counters")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "integer", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("container_images")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("client_hash", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("completed_at", "text")
      .execute();
    await db.schema
      .createTable("uploads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("sha256", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("policy_secret_envs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("ciphertext", "text", (c) => c.notNull())
      .addColumn("variable_names", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("policies")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("policies_owner_name", ["owner_user_id", "name"])
      .execute();
    await db.schema
      .createTable("policy_versions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("policy_id", "text", (c) => c.notNull().references("policies.id"))
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("container_image_id", "text", (c) => c.references("container_images.id"))
      .addColumn("bundle_upload_id", "text", (c) => c.references("uploads.id"))
      .addColumn("run", "text")
      .addColumn("secret_env_id", "text", (c) => c.references("policy_secret_envs.id"))
      .addColumn("tags", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.references("players.id"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("policy_versions_policy_version", ["policy_id", "version"])
      .execute();
    await db.schema
      .createTable("coworlds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("game_id", "text", (c) => c.notNull().references("games.id"))
      .addColumn("manifest", "text", (c) => c.notNull())
      .addColumn("manifest_hash", "text", (c) => c.notNull())
      .addColumn("bundle_sha256", "text")
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("coworlds_name_version", ["name", "version"])
      .execute();
    await db.schema
      .createTable("coworld_secrets")
      .addColumn("coworld_name", "text", (c) => c.notNull())
      .addColumn("secret_name", "text", (c) => c.notNull())
      .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("ciphertext", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("coworld_secrets_pk", ["coworld_name", "secret_name"])
      .execute();
    await db.schema
      .createTable("certifications")
      .addColumn("coworld_id", "text", (c) => c.primaryKey().references("coworlds.id"))
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("episode_request_id", "text")
      .addColumn("error", "text")
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("episode_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("requester_user_id", "text", (c) => c.notNull().references("users.id"))
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("coworld_id", "text", (c) => c.notNull().references("coworlds.id"))
      .addColumn("league_id", "text")
      .addColumn("division_id", "text")
      .addColumn("round_id", "text")
      .addColumn("pool_id", "text")
      .addColumn("experience_request_id", "text")
      .addColumn("game_config", "text", (c) => c.notNull())
      .addColumn("seed", "integer", (c) => c.notNull())
      .addColumn("max_steps", "integer")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("job_id", "text")
      .addColumn("error_type", "text")
      .addColumn("error", "text")
      .addColumn("failed_policy_index", "integer")
      .addColumn("results", "text")
      .addColumn("scores", "text", (c) => c.notNull())
      .addColumn("change_seq", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("episode_requests_created")
      .on("episode_requests")
      .columns(["created_at", "id"])
      .execute();
    await db.schema
      .createIndex("episode_requests_change")
      .on("episode_requests")
      .column("change_seq")
      .execute();
    await db.schema
      .createIndex("episode_requests_round")
      .on("episode_requests")
      .column("round_id")
      .execute();
    await db.schema
      .createTable("episode_participants")
      .addColumn("episode_request_id", "text", (c) => c.notNull().references("episode_requests.id"))
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("policy_version_id", "text")
      .addColumn("bundled_player_id", "text")
      .addColumn("player_id", "text")
      .addColumn("display_name", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("episode_participants_pk", ["episode_request_id", "position"])
      .execute();
    await db.schema
      .createIndex("episode_participants_pv")
      .on("episode_participants")
      .column("policy_version_id")
      .execute();
    await db.schema
      .createTable("jobs")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("episode_request_id", "text", (c) => c.notNull().references("episode_requests.id"))
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("runtime", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("max_attempts", "integer", (c) => c.notNull())
      .addColumn("lease_owner", "text")
      .addColumn("lease_expires_at", "text")
      .addColumn("deadline_ms", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("jobs_queue")
      .on("jobs")
      .columns(["status", "created_at"])
      .execute();
    await db.schema
      .createTable("artifacts")
      .addColumn("episode_request_id", "text", (c) => c.notNull().references("episode_requests.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("sha256", "text", (c) => c.notNull())
      .addColumn("size_bytes", "integer", (c) => c.notNull())
      .addColumn("media_type", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("artifacts_pk", ["episode_request_id", "name"])
      .execute();
  },
};

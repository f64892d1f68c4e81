import type { Command } from "commander";

export interface StorageFlags {
  dataDir?: string;
  databaseUrl?: string;
}

/** Every command takes the storage options of `start` (issue: admin commands share storage). */
export function withStorageOptions(command: Command): Command {
  return command
    .option(
      "--data-dir <dir>",
      "data directory for the embedded SQLite store and blobs (env GAUNTLET_DATA_DIR; default ./.gauntlet)",
    )
    .option(
      "--database-url <url>",
      "PostgreSQL connection URL; SQLite in the data directory when absent (env DATABASE_URL)",
    );
}

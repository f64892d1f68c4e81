// The remaining records whose endpoints arrive with later issues.
import { z } from "zod";

import { ReporterRunId } from "../ids.ts";
import { Timestamp } from "./common.ts";

export const ReporterRunOutput = z
  .object({
    id: z.string(),
    reporter_id: z.string(),
    reporter_run_id: ReporterRunId,
    name: z.string(),
    type: z.string(),
    size_bytes: z.number().int(),
    content_hash: z
      .string()
      .meta({ description: "The SHA-256 of the output's bytes, in lowercase hex." }),
    media_type: z.string(),
    created_at: Timestamp,
    url: z.string().meta({ description: "Serves the same bytes, with `media_type`." }),
  })
  .meta({ id: "ReporterRunOutput" });

export const GameSecretRecord = z
  .object({
    coworld_id: z.string(),
    coworld_name: z.string(),
    owner_user_id: z.string(),
    secret_name: z.string(),
    size_bytes: z.number().int(),
    updated_at: Timestamp,
  })
  .meta({ id: "GameSecretRecord", description: "The secret value is never part of the record." });

export const BulkUploadCompletion = z
  .object({ episodes_created: z.number().int(), duckdb_s3_uri: z.string() })
  .meta({ id: "BulkEpisodeUploadCompletion" });

export const MigrateBoardRequest = z
  .strictObject({ dry_run: z.boolean().default(true) })
  .meta({ id: "MigrateBoardRequest", description: "No other properties are accepted." });

export type ReporterRunOutput = z.infer<typeof ReporterRunOutput>;
export type GameSecretRecord = z.infer<typeof GameSecretRecord>;

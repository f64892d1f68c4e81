// Bulk episode upload (docs/api.md, "Groups"): a DuckDB file of episodes played
// elsewhere, put to a signed address and then copied into the store.
import { z } from "zod";

import { queryInt } from "./common.ts";

export const BulkUploadId = z.uuid().meta({ description: "A bulk upload's id (UUID format)." });

export const BulkUploadStarted = z
  .object({
    upload_url: z
      .string()
      .meta({ description: "A signed, expiring address: PUT the DuckDB file's bytes to it." }),
    s3_key: z.string(),
    upload_id: BulkUploadId,
    expires_at: z.string(),
  })
  .meta({ id: "BulkUploadStarted" });

export const CompleteBulkUploadRequest = z
  .object({ upload_id: BulkUploadId })
  .meta({ id: "CompleteBulkUploadRequest" });

export const BulkUploadCompleted = z
  .object({
    episodes_created: z.number().int().nonnegative(),
    duckdb_s3_uri: z.string().meta({ description: "Address of the stored episode data." }),
  })
  .meta({ id: "BulkEpisodeUploadCompletionResult" });

export const BulkUploadFileParams = z.object({ upload_id: BulkUploadId });
export const BulkUploadFileQuery = z.object({
  expires: queryInt(0, Number.MAX_SAFE_INTEGER),
  signature: z.string().min(1).max(200),
});

export const BulkUploadPut = z
  .object({ upload_id: BulkUploadId, size_bytes: z.number().int() })
  .meta({ id: "BulkUploadPut" });

export type BulkUploadStarted = z.infer<typeof BulkUploadStarted>;
export type BulkUploadCompleted = z.infer<typeof BulkUploadCompleted>;

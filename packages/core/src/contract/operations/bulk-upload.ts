// Bulk episode upload: start (a signed address), put the file, complete.
import {
  BulkUploadCompleted,
  BulkUploadFileParams,
  BulkUploadFileQuery,
  BulkUploadPut,
  BulkUploadStarted,
  CompleteBulkUploadRequest,
} from "../../models/bulk-upload.ts";
import { Bytes } from "../../models/common.ts";
import { defineOperation } from "../operation.ts";

const FILE_FORMAT =
  "The DuckDB file holds four tables: `episodes(id)` (optional `coworld_id` — else the one coworld its policy versions play — `created_at`, `replay_url`, `thumbnail_url`, `primary_pv_id`, `attributes`, `eval_task_id`), `episode_tags(episode_id, key, value)`, `episode_agent_policies(episode_id, agent_id, policy_version_id)` and `episode_agent_metrics(episode_id, agent_id, metric, value)`, and optionally `episode_policy_metrics(episode_id, policy_version_id, metric, value)`. Each episode seats one participant per distinct policy version (in order of its lowest agent_id); its score is the `reward` metric summed over that version's agents.";

export const bulkUploadOperations = {
  startBulkUpload: defineOperation({
    id: "startBulkUpload",
    method: "POST",
    path: "/stats/episodes/bulk_upload/presigned-url",
    tag: "Episodes",
    summary: "Start a bulk episode upload: a signed address to PUT a DuckDB file to",
    description: `The address expires after an hour. ${FILE_FORMAT}`,
    auth: "required",
    complexity: 10,
    status: 200,
    response: BulkUploadStarted,
  }),
  putBulkUploadFile: defineOperation({
    id: "putBulkUploadFile",
    method: "PUT",
    path: "/stats/episodes/bulk_upload/files/{upload_id}",
    tag: "Episodes",
    summary:
      "The signed address of a bulk upload (file-system blob store): the DuckDB file's bytes",
    description:
      "Authenticated by its signature, not a bearer token; 403 when the signature is wrong or expired. Up to 256 MiB.",
    auth: "none",
    complexity: 10,
    params: BulkUploadFileParams,
    query: BulkUploadFileQuery,
    body: Bytes,
    bodyContentType: "application/octet-stream",
    maxBodyBytes: 256 * 1024 * 1024,
    status: 200,
    response: BulkUploadPut,
  }),
  completeBulkUpload: defineOperation({
    id: "completeBulkUpload",
    method: "POST",
    path: "/stats/episodes/bulk_upload/complete",
    tag: "Episodes",
    summary: "Complete a bulk episode upload: copy its episodes into the store",
    description: `All rows in one transaction; completing the same upload again creates nothing and answers the same counts. A file that is not DuckDB, or lacks a table or column, is 400 \`invalid_upload\` naming what is missing, and stores nothing. ${FILE_FORMAT}`,
    auth: "required",
    complexity: 100,
    body: CompleteBulkUploadRequest,
    status: 200,
    response: BulkUploadCompleted,
  }),
} as const;

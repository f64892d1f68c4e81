import { z } from "zod";

/** ISO 8601 date-time in UTC. */
export const Timestamp = z.iso.datetime({ offset: true });

/** A free-form JSON object. */
export const FreeForm = z.record(z.string(), z.unknown());

/** What a free-form object a caller stores and others read back may hold, as JSON. */
export const STORED_FREE_FORM_MAX_BYTES = 16 * 1024;

/**
 * A free-form JSON object a caller stores and others read back (a league's config, settings,
 * rules): at most STORED_FREE_FORM_MAX_BYTES as JSON, so one caller cannot make every listing
 * that shows it megabytes long.
 */
export const StoredFreeForm = FreeForm.refine(
  (value) => new TextEncoder().encode(JSON.stringify(value)).length <= STORED_FREE_FORM_MAX_BYTES,
  { message: `at most ${STORED_FREE_FORM_MAX_BYTES} bytes as JSON` },
);

/** Query-string boolean: only the literal words true/false (and 1/0) are accepted. */
export const QueryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

/** Query-string integer within bounds; over-limit is a 422 (docs/api.md, "Conventions"). */
export function queryInt(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}

/** Raw bytes: an octet-stream request body or a binary response. */
export const Bytes = z.custom<Uint8Array>(
  (v) => v instanceof Uint8Array,
  "expected bytes (application/octet-stream)",
);

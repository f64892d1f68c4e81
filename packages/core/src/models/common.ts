import { z } from "zod";

/** ISO 8601 date-time in UTC. */
export const Timestamp = z.iso.datetime({ offset: true });

/** A free-form JSON object. */
export const FreeForm = z.record(z.string(), z.unknown());

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

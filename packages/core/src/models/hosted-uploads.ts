// Content-addressed uploads of the hosted service's upload client (coworld): a reporter's
// bundle (a wasm component) and a coworld's replay viewer bundle (a zip). The client asks for an
// address, PUTs the bytes there, then completes; identical content needs no second upload.
import { z } from "zod";

import { Uuid } from "../ids.ts";
import { queryInt } from "./common.ts";

/** Largest bundle taken (a wasm component or a viewer's zip). */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

const ContentHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be the SHA-256 of the bytes, 64 lowercase hex digits");
const SizeBytes = z.number().int().min(1).max(MAX_BUNDLE_BYTES);
const ReporterName = z.string().trim().min(1).max(100);
const Attributes = z.record(z.string(), z.unknown()).meta({
  description: "What the reporter says of itself (outputs, purpose); part of a version's identity.",
});

export const ReporterVersion = z
  .object({
    id: Uuid,
    name: z.string(),
    version: z.number().int(),
    content_hash: z.string(),
  })
  .meta({ id: "ReporterVersion" });

export const ReporterUploadRequest = z.object({
  name: ReporterName,
  content_hash: ContentHash,
  size_bytes: SizeBytes,
  attributes: Attributes,
});

export const ReporterUploadStarted = z
  .object({
    /** Where to PUT the bytes; null when these bytes and attributes are already a version. */
    upload_url: z.string().nullable(),
    existing_version: ReporterVersion.nullable(),
  })
  .meta({ id: "ReporterUploadStarted" });

export const ReporterUploadCompleteRequest = z.object({
  name: ReporterName,
  content_hash: ContentHash,
  attributes: Attributes,
});

export const ReporterUploadCompleted = z
  .object({ version: ReporterVersion })
  .meta({ id: "ReporterUploadCompleted" });

export const ReplayViewerBundleRequest = z.object({
  content_hash: ContentHash,
  size_bytes: SizeBytes,
});

export const ReplayViewerBundleStarted = z
  .object({
    /** `sha256:<hash>`, what a coworld manifest's `game.replay_viewer.bundle` names. */
    bundle: z.string(),
    upload_url: z.string().nullable(),
  })
  .meta({ id: "ReplayViewerBundleStarted" });

export const ReplayViewerBundleCompleted = z
  .object({ bundle: z.string() })
  .meta({ id: "ReplayViewerBundleCompleted" });

export const ContentUploadParams = z.object({ upload_id: Uuid });
export const ContentUploadQuery = z.object({
  expires: queryInt(0, Number.MAX_SAFE_INTEGER),
  signature: z.string().min(1).max(200),
});
export const ContentUploadPut = z
  .object({ upload_id: Uuid, size_bytes: z.number().int() })
  .meta({ id: "ContentUploadPut" });

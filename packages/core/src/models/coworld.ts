// Coworlds as stored and served: versions of a manifest with their files, certification,
// and secrets (docs/api.md, "Groups").
import { z } from "zod";

import { idSchema, Uuid } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { CoworldManifest } from "./coworld-manifest.ts";

export const CoworldId = idSchema("coworld");

export const Coworld = z
  .object({
    id: CoworldId,
    name: z.string(),
    version: z.string(),
    manifest: CoworldManifest,
    manifest_hash: z.string(),
    size_bytes: z.number().int(),
    canonical: z.boolean().meta({ description: "The highest semver of this name." }),
    owner_user_id: z.string(),
    game_id: z.string(),
    has_bundle: z.boolean(),
    created_at: Timestamp,
  })
  .meta({ id: "Coworld" });

export const CoworldUploadRequest = z
  .strictObject({
    manifest: z.unknown().meta({ description: "The coworld_manifest.json document." }),
    bundle_upload_id: Uuid.optional().meta({
      description:
        "The tar.gz of the coworld's files, from POST /v2/coworlds/bundles (needed for the process runtime).",
    }),
  })
  .meta({ id: "CoworldUploadRequest" });

export const CoworldBundleUpload = z
  .object({
    upload_id: Uuid,
    sha256: z.string(),
    size_bytes: z.number().int(),
    files: z.number().int(),
  })
  .meta({ id: "CoworldBundleUpload" });

export const CertificationState = z.enum([
  "never_run",
  "queued",
  "certifying",
  "certified",
  "failed",
]);

export const Certification = z
  .object({
    coworld_id: CoworldId,
    state: CertificationState,
    certified: z
      .boolean()
      .meta({ description: "`state` is `certified` (the hosted service's field)." }),
    episode_request_id: z
      .string()
      .nullable()
      .meta({ description: "The certification episode that decided (or will decide) the state." }),
    error: z.string().nullable(),
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: "Certification" });

export const SecretPathParams = z.object({
  coworld_name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/),
  secret_name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "an environment variable name"),
});

export type Coworld = z.infer<typeof Coworld>;
export type Certification = z.infer<typeof Certification>;

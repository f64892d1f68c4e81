// Container images, policy bundles, policy versions and their secret environments (docs/api.md,
// "Groups").
import { z } from "zod";

import { idSchema, Uuid } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { RunnableEnv } from "./coworld-manifest.ts";

export const ContainerImageId = idSchema("image");

export const ContainerImage = z
  .object({
    id: ContainerImageId,
    name: z.string(),
    version: z.number().int().meta({
      description:
        "1 for the owner's first image of this name, then counting up (the hosted service's image versions).",
    }),
    client_hash: z.string(),
    owner_user_id: z.string(),
    status: z.enum(["pending", "complete"]),
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
  })
  .meta({
    id: "ContainerImage",
    description: "A reference to an image in any registry (Gauntlet stores no image bytes).",
  });

export const ContainerImageUploadRequest = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .meta({ description: "A pullable reference, e.g. ghcr.io/me/policy:1." }),
    client_hash: z.string().trim().min(1).max(200),
  })
  .meta({ id: "ContainerImageUploadRequest" });

export const ContainerImageUploadResponse = z
  .object({ image: ContainerImage, pre_signed_info: z.null() })
  .meta({ id: "ContainerImageUploadResponse" });

export const IdRequest = z
  .strictObject({ id: z.string().min(1).max(200) })
  .meta({ id: "IdRequest" });

export const PolicyBundle = z
  .object({
    id: Uuid,
    owner_user_id: z.string(),
    sha256: z.string(),
    size_bytes: z.number().int(),
    status: z.enum(["uploaded", "complete"]),
    created_at: Timestamp,
  })
  .meta({
    id: "PolicyBundle",
    description: "A tar.gz of a policy's files for the process runtime, in the blob store.",
  });

export const PolicySecretEnvRequest = z
  .strictObject({
    env: RunnableEnv.refine(
      (env) => Object.keys(env).length > 0 && Object.keys(env).length <= 100,
      "between 1 and 100 variables",
    ),
  })
  .meta({ id: "PolicySecretEnvRequest" });

export const PolicySecretEnvCreated = z
  .object({ id: Uuid, variable_names: z.array(z.string()), created_at: Timestamp })
  .meta({
    id: "PolicySecretEnvCreated",
    description: "Values are encrypted at rest and never returned.",
  });

export const CreatePolicyVersionRequest = z
  .strictObject({
    name: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "letters, digits, . _ - (up to 100)"),
    container_image_id: ContainerImageId.optional(),
    policy_bundle_id: Uuid.optional(),
    run: z
      .array(z.string().min(1))
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "argv on the process runtime (inside the bundle)." }),
    policy_secret_env_id: Uuid.optional(),
    tags: z.record(z.string(), z.string()).optional(),
    player_id: idSchema("player").optional(),
  })
  .meta({ id: "CreatePolicyVersionRequest" });

export const CreatedPolicyVersion = z
  .object({ id: Uuid, name: z.string(), version: z.number().int() })
  .meta({ id: "CreatedPolicyVersion" });

export const PolicyVersion = z
  .object({
    id: Uuid,
    policy: z.object({ id: Uuid, name: z.string() }),
    version: z.number().int(),
    player_id: z.string().nullable(),
    owner_user_id: z.string(),
    // How the version runs is its owner's (and admins'): others get the version without these.
    container_image_id: z.string().nullable().optional(),
    policy_bundle_id: z.string().nullable().optional(),
    run: z.array(z.string()).nullable().optional(),
    has_secret_env: z.boolean().optional(),
    tags: z.record(z.string(), z.string()),
    open_to_scrimmage: z.boolean().meta({
      description:
        "Its owner lets anyone seat it anywhere (evaluations, play sessions). Off: it plays only in the leagues and tournaments it was entered in, and in evaluations by its owner or by the commissioner of a league it is in, on that league's coworld.",
    }),
    created_at: Timestamp,
    // The hosted service's flat names (cogames' PolicyVersionRow reads them).
    user_id: z.string().meta({ description: "The policy's owner (`owner_user_id`)." }),
    policy_id: Uuid,
    name: z.string().meta({ description: "The policy's name." }),
    policy_created_at: Timestamp,
  })
  .meta({ id: "PolicyVersion" });

export const UpdatePolicyVersionRequest = z
  .strictObject({
    open_to_scrimmage: z.boolean().meta({
      description: "true: anyone may seat this version anywhere; false: only where you entered it.",
    }),
  })
  .meta({ id: "UpdatePolicyVersionRequest" });

export const PolicyVersionStatsPage = z
  .object({ entries: z.array(PolicyVersion), total_count: z.number().int() })
  .meta({ id: "PolicyVersionStatsPage" });

export type ContainerImage = z.infer<typeof ContainerImage>;
export type PolicyBundle = z.infer<typeof PolicyBundle>;
export type PolicyVersion = z.infer<typeof PolicyVersion>;
export type UpdatePolicyVersionRequest = z.infer<typeof UpdatePolicyVersionRequest>;

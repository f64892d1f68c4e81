// The hosted upload client's league seeds and commissioner patch (docs/api.md, "The hosted
// service's clients"): a seed is the league a coworld name starts, kept with the recipe it was made
// from; patching the commissioner makes the next version of a coworld with a new commissioner
// image.
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { StoredFreeForm, Timestamp } from "./common.ts";

export const LeagueSeedId = idSchema("leagueSeed");

const CoworldName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);

const Overrides = StoredFreeForm.meta({
  description:
    "League fields (`name`, `description`, `public`, `hidden`; `is_game_of_week` for admins) and, for every other key, the league's `commissioner_config` (`commissioner_runnable_id` must name a `manifest.commissioner[].id` of the canonical version).",
});

export const CoworldLeagueSeed = z
  .object({
    id: LeagueSeedId,
    coworld_name: z.string(),
    template: z.string().meta({ description: "The league's `commissioner_key`." }),
    overrides: Overrides.nullable(),
    enabled: z.boolean().meta({ description: "False while the league is disabled." }),
    created_by: z.string().meta({ description: "The user who made the seed." }),
    notes: z.string().nullable(),
    created_at: Timestamp,
    league_id: z.string().nullable().meta({ description: "The league the seed started." }),
  })
  .meta({ id: "CoworldLeagueSeed" });

export const CreateCoworldLeagueSeedRequest = z
  .strictObject({
    coworld_name: CoworldName,
    template: z.string().trim().min(1).max(64).default("commissioner_driven"),
    overrides: Overrides.nullable().optional(),
    enabled: z.boolean().default(true),
    notes: z.string().max(2000).nullable().optional(),
  })
  .meta({ id: "CreateCoworldLeagueSeedRequest" });

export const UpdateCoworldLeagueSeedRequest = z
  .strictObject({
    overrides: Overrides.meta({ description: "Replaces the seed's overrides whole." }),
    enabled: z.boolean().optional(),
  })
  .meta({ id: "UpdateCoworldLeagueSeedRequest" });

export const CoworldLeagueSeedParams = z.object({ coworld_name: CoworldName });

export const PatchCommissionerRequest = z
  .strictObject({
    coworld_name: CoworldName,
    container_image_id: idSchema("image").meta({
      description: "One of the caller's container images: the commissioner's new image.",
    }),
    runnable_id: z.string().min(1).max(200).optional().meta({
      description: "The `manifest.commissioner[].id` to patch; needed when there are several.",
    }),
    version: z.string().min(1).max(100).optional().meta({
      description: "The new version (semver); by default the canonical version's next patch.",
    }),
  })
  .meta({ id: "PatchCommissionerRequest" });

export type CoworldLeagueSeed = z.infer<typeof CoworldLeagueSeed>;

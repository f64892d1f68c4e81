// The hosted upload client's league seeds and commissioner patch (coworld's `coworld league …`
// and `coworld patch-commissioner`), served as views of leagues and coworld versions
// (docs/api.md "The hosted service's clients").
import { z } from "zod";

import {
  CoworldLeagueSeed,
  CoworldLeagueSeedParams,
  CreateCoworldLeagueSeedRequest,
  PatchCommissionerRequest,
  UpdateCoworldLeagueSeedRequest,
} from "../../models/coworld-league-seed.ts";
import { Coworld } from "../../models/coworld.ts";
import { defineOperation } from "../operation.ts";

export const coworldLeagueSeedOperations = {
  patchCoworldCommissioner: defineOperation({
    id: "patchCoworldCommissioner",
    method: "POST",
    path: "/v2/coworlds/patch-commissioner",
    tag: "Coworlds",
    summary: "Upload the next version of a coworld with a new commissioner image (owner only)",
    description:
      "Copies the canonical version (manifest and files), sets `image` of the commissioner runnable (`runnable_id`, or the only one) to `container_image_id`, one of the caller's images, and stores it as `version` (by default the next patch version). A coworld name of another user is 403.",
    auth: "required",
    access: "user",
    complexity: 20,
    body: PatchCommissionerRequest,
    status: 201,
    response: Coworld,
  }),
  listCoworldLeagueSeeds: defineOperation({
    id: "listCoworldLeagueSeeds",
    method: "GET",
    path: "/v2/coworld-league-seeds",
    tag: "Coworlds",
    summary: "The league seeds of the caller's coworlds (every seed, for admins)",
    auth: "required",
    access: "user",
    complexity: 5,
    status: 200,
    response: z.array(CoworldLeagueSeed),
  }),
  createCoworldLeagueSeed: defineOperation({
    id: "createCoworldLeagueSeed",
    method: "POST",
    path: "/v2/coworld-league-seeds",
    tag: "Coworlds",
    summary: "Start a coworld's league from a seed (the coworld's owner or an admin)",
    description:
      "Creates the league of `coworld_name` (one seed per name; a second is 409): named after the coworld, public, one competition division, `commissioner_key` the `template`, with the coworld's owner as commissioner. A coworld of another user is 403.",
    auth: "required",
    access: "user",
    complexity: 10,
    body: CreateCoworldLeagueSeedRequest,
    status: 201,
    response: CoworldLeagueSeed,
  }),
  updateCoworldLeagueSeed: defineOperation({
    id: "updateCoworldLeagueSeed",
    method: "PATCH",
    path: "/v2/coworld-league-seeds/{coworld_name}",
    tag: "Coworlds",
    summary: "Replace a league seed's overrides and apply them to its league",
    description:
      "The coworld's owner or an admin; to anyone else a seed is 404, as one that does not exist.",
    auth: "required",
    access: "user",
    complexity: 10,
    params: CoworldLeagueSeedParams,
    body: UpdateCoworldLeagueSeedRequest,
    status: 200,
    response: CoworldLeagueSeed,
  }),
} as const;

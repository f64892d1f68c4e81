// Play modules: static browser bundles per coworld version (docs/api.md, "Lobbies, hosted play and
// play modules").
import { z } from "zod";

import { Bytes } from "../../models/common.ts";
import {
  CoworldPlayModulesParams,
  PlayModule,
  PlayModuleFileParams,
  PlayModuleParams,
  PlayModuleUploadQuery,
} from "../../models/play-module.ts";
import { defineOperation } from "../operation.ts";

/** The largest play module bundle accepted (tar.gz bytes). */
export const MAX_PLAY_MODULE_BYTES = 20 * 1024 * 1024;

export const playModuleOperations = {
  uploadPlayModule: defineOperation({
    id: "uploadPlayModule",
    method: "POST",
    path: "/v2/coworlds/{coworld_id}/play-modules",
    tag: "Play Modules",
    summary: "Upload a play module (a tar.gz of static files) for a coworld version",
    description:
      "The coworld's owner or an admin. `kind` is `player_client` (the default), `global_viewer` or `replay_viewer`; `entry` (default `index.html`) must be one of the archive's files. A new upload of the same kind replaces the previous one. 422 for an archive that is not a safe tar.gz of relative paths.",
    auth: "required",
    access: "owner",
    complexity: 20,
    params: CoworldPlayModulesParams,
    query: PlayModuleUploadQuery,
    body: Bytes.meta({ description: "The tar.gz bytes." }),
    bodyContentType: "application/octet-stream",
    maxBodyBytes: MAX_PLAY_MODULE_BYTES,
    status: 201,
    response: PlayModule,
  }),
  listPlayModules: defineOperation({
    id: "listPlayModules",
    method: "GET",
    path: "/v2/coworlds/{coworld_id}/play-modules",
    tag: "Play Modules",
    summary: "The play modules of a coworld version",
    auth: "optional",
    complexity: 1,
    params: CoworldPlayModulesParams,
    status: 200,
    response: z.array(PlayModule),
  }),
  getPlayModule: defineOperation({
    id: "getPlayModule",
    method: "GET",
    path: "/v2/play-modules/{play_module_id}",
    tag: "Play Modules",
    summary: "Get a play module with its file list",
    auth: "optional",
    complexity: 1,
    params: PlayModuleParams,
    status: 200,
    response: PlayModule,
  }),
  getPlayModuleFile: defineOperation({
    id: "getPlayModuleFile",
    method: "GET",
    path: "/v2/play-modules/{play_module_id}/files/{file_path}",
    tag: "Play Modules",
    summary: "A file of a play module, served read-only",
    description:
      "`file_path` takes the rest of the address, slashes included, so that a bundle's relative links work. The content type comes from the file's extension (unknown ones are `application/octet-stream`), with `X-Content-Type-Options: nosniff` and a Content-Security-Policy that lets the page load only its own module's files and talk only to this service.",
    auth: "none",
    complexity: 1,
    params: PlayModuleFileParams,
    restOfPath: "file_path",
    status: 200,
    response: Bytes,
    responseKind: "bytes",
  }),
} as const;

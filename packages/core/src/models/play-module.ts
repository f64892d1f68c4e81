// Play modules: static browser bundles attached to a coworld version — the player client a person
// plays with, a global viewer of a live game, a replay viewer (docs/api.md, "Lobbies, hosted play
// and play modules").
import { z } from "zod";

import { idSchema } from "../ids.ts";
import { Timestamp } from "./common.ts";
import { CoworldId } from "./coworld.ts";

export const PlayModuleId = idSchema("playModule");

export const PlayModuleKind = z
  .enum(["player_client", "global_viewer", "replay_viewer"])
  .meta({ id: "PlayModuleKind" });

/** A file path inside a bundle: relative, `/`-separated, no `.`/`..` segments, no backslashes. */
export const PlayModuleFilePath = z
  .string()
  .min(1)
  .max(300)
  .regex(
    /^(?!\/)(?!.*\/\/)(?!.*\\)[A-Za-z0-9._\-/]+$/,
    "a relative path of letters, digits, . _ - and /",
  )
  .refine(
    (p) => !p.split("/").some((s) => s === "." || s === ".." || s === ""),
    "no empty, . or .. segments",
  );

export const PlayModuleFile = z
  .object({
    path: z.string(),
    size_bytes: z.number().int(),
    content_type: z.string(),
    sha256: z.string(),
  })
  .meta({ id: "PlayModuleFile" });

export const PlayModule = z
  .object({
    id: PlayModuleId,
    coworld_id: CoworldId,
    kind: PlayModuleKind,
    entry: z.string().meta({ description: "The file a browser opens first (e.g. `index.html`)." }),
    entry_url: z.string().meta({ description: "Where the entry file is served." }),
    sha256: z.string().meta({ description: "Of the uploaded tar.gz." }),
    size_bytes: z.number().int(),
    files: z.array(PlayModuleFile),
    uploader_user_id: z.string(),
    created_at: Timestamp,
  })
  .meta({ id: "PlayModule" });

export const PlayModuleUploadQuery = z.object({
  kind: PlayModuleKind.default("player_client"),
  entry: PlayModuleFilePath.default("index.html"),
});

export const CoworldPlayModulesParams = z.object({ coworld_id: CoworldId });
export const PlayModuleParams = z.object({ play_module_id: PlayModuleId });
export const PlayModuleFileParams = PlayModuleParams.extend({ file_path: PlayModuleFilePath });

export type PlayModule = z.infer<typeof PlayModule>;
export type PlayModuleFile = z.infer<typeof PlayModuleFile>;
export type PlayModuleKind = z.infer<typeof PlayModuleKind>;

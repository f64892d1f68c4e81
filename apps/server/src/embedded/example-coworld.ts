// First start: the example coworld (examples/coworlds/gridrush, a workspace dependency of the
// server) is uploaded as the first admin with its play modules (the browser client people play
// it with, and its replay viewer), so that certifying, hosted play and replays work out of the box.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import type { Coworld, PlayModuleKind } from "@gauntlet/core";

import type { BlobStore } from "../blobs/blob-store.ts";
import { packDirectory } from "../blobs/tarball.ts";
import { listCoworlds, uploadCoworld } from "../coworlds/coworlds.ts";
import { uploadPlayModule } from "../play/play-modules.ts";
import { storeUpload } from "../policies/policies.ts";
import { ServiceError } from "../shared/errors.ts";
import type { Store } from "../store/database.ts";
import { firstAdminIdentity } from "./first-admin.ts";

export function exampleCoworldDir(): string {
  return dirname(
    fileURLToPath(import.meta.resolve("@gauntlet/example-gridrush/coworld_manifest.json")),
  );
}

/** Uploads the example coworld unless a coworld of its name exists; returns what it uploaded. */
export async function registerExampleCoworld(
  store: Store,
  blobs: BlobStore,
  dir = exampleCoworldDir(),
): Promise<Coworld | null> {
  const admin = await firstAdminIdentity(store.db);
  if (!admin) return null;
  const manifest = JSON.parse(await readFile(`${dir}/coworld_manifest.json`, "utf8")) as {
    game?: { name?: unknown };
  };
  const name = typeof manifest.game?.name === "string" ? manifest.game.name : "";
  if ((await listCoworlds(store.db, { name })).length > 0) return null;
  const upload = await storeUpload(
    store.db,
    blobs,
    admin,
    "coworld-bundle",
    await packDirectory(dir),
  );
  let coworld: Coworld;
  try {
    coworld = await uploadCoworld(store.db, admin, {
      manifest,
      bundleUploadId: upload.id,
      asOwner: true,
    });
  } catch (error) {
    // Another replica starting on the same database registered it first.
    if (error instanceof ServiceError && error.status === 409) return null;
    throw error;
  }
  for (const [kind, folder] of PLAY_MODULES) {
    const from = join(dir, "play", folder);
    if (existsSync(join(from, "index.html")))
      await uploadPlayModule(
        store.db,
        blobs,
        admin,
        coworld.id,
        { kind, entry: "index.html" },
        await packDirectory(from),
      );
  }
  return coworld;
}

/** The example's play modules by kind, each a folder of `play/` with an `index.html`. */
const PLAY_MODULES: readonly (readonly [PlayModuleKind, string])[] = [
  ["player_client", "client"],
  ["replay_viewer", "replay"],
];

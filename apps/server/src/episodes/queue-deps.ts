// What the work queue's operations need: the store, the blobs, the secret box, and who hears of
// settled episodes.
import type { Kysely } from "kysely";

import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import type { Database } from "../store/schema.ts";
import type { QueueShares } from "./queue-shares.ts";

export interface QueueDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
  box: SecretBox;
  onSettled?: (event: EpisodeSettledEvent) => void;
  /** The classes' weights and the per-user cap; the defaults when not given. */
  shares?: QueueShares;
}

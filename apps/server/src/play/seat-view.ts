// What a seat's page learns from a plain GET of its socket address with its join token: the
// session's state, and once it is over its result and a link to its replay, so that a page
// opened (or left open) after the game says it is over instead of waiting for moves. The join
// token is the credential: it already lets its holder play the seat.
import type { Kysely } from "kysely";

import type { PlaySessionSocketInfo } from "@gauntlet/core";

import type { SecretBox } from "../auth/secret-box.ts";
import { hashToken } from "../auth/secrets.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { parseJson } from "../shared/clock.ts";
import type { Database } from "../store/schema.ts";
import { replayPaths, type ReplayPaths } from "./replays.ts";
import { isFinal } from "./session-status.ts";
import { currentSession } from "./sessions.ts";
import { replayViewerOf, StaticViewerError } from "./static-replay-viewer.ts";

export type SeatView = NonNullable<PlaySessionSocketInfo["session"]>;

/**
 * The session as the seat `token` opens sees it, and the paths of its replay once there is one
 * (the route puts the viewer's address in `replay_url`); undefined for an unknown session or token.
 */
export async function seatView(
  db: Kysely<Database>,
  box: SecretBox,
  blobs: BlobStore,
  id: string,
  token: string,
): Promise<{ view: SeatView; replay: ReplayPaths | null } | undefined> {
  const seat = await db
    .selectFrom("play_session_seats")
    .select("position")
    .where("play_session_id", "=", id)
    .where("join_token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!seat) return undefined;
  const { row, seats } = await currentSession(db, id);
  // Another person's name is shown only where the session shows who joined (its lobby does the same).
  const players = seats.map((s) =>
    s.kind === "human" && s.position !== seat.position && row.allow_spectators !== 1
      ? "a person"
      : s.label,
  );
  const view: SeatView = {
    status: row.status,
    position: seat.position,
    players,
    error: row.error,
    error_type: row.error_type,
    scores: null,
    replay_url: null,
  };
  const answer = { view, replay: null };
  if (!isFinal(row.status) || row.episode_request_id === null) return answer;
  const episode = await db
    .selectFrom("episode_requests")
    .select(["id", "scores", "status"])
    .where("id", "=", row.episode_request_id)
    .executeTakeFirst();
  if (episode?.status !== "completed") return answer;
  view.scores = parseJson<number[]>(episode.scores);
  const replay = await db
    .selectFrom("artifacts")
    .select("name")
    .where("episode_request_id", "=", episode.id)
    .where("name", "=", "replay")
    .executeTakeFirst();
  // A static viewer the manifest names but that cannot be used leaves the page without a replay.
  const viewer = replay
    ? await replayViewerOf(db, blobs, row.coworld_id).catch((error: unknown) => {
        if (error instanceof StaticViewerError) return undefined;
        throw error;
      })
    : undefined;
  return { view, replay: replay && viewer ? replayPaths(box, viewer, episode.id) : null };
}

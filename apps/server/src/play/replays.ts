// Hosted replays: a replay session opens the coworld's replay viewer on one episode's replay.
// The viewer is the coworld owner's code (served sandboxed, see content-types.ts), so it never
// gets a bearer token: it gets a capability — the episode's id and an expiry, signed with the
// server's key (short enough for a path segment) — that reads that one replay for 15 minutes, and nothing else. Only someone who
// may read the episode mints one. Domain functions answer paths; routes make them absolute.
import type { Kysely } from "kysely";

import { uuidPattern, type ReplaySessionCreate } from "@gauntlet/core";

import type { Identity } from "../auth/identity.ts";
import type { SecretBox } from "../auth/secret-box.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { readArtifact } from "../episodes/episode-files.ts";
import { getEpisodeRow } from "../episodes/episode-reads.ts";
import {
  artifactsExpired,
  InputError,
  invalidInput,
  notFound,
  ServiceError,
} from "../shared/errors.ts";
import type { Database } from "../store/schema.ts";
import { playModuleEntryPath } from "./play-modules.ts";
import type { ReplayUnavailable } from "./replay-unavailable-page.ts";
import { coworldOfBody } from "./sessions.ts";
import { replayViewerOf, StaticViewerError, type ReplayViewer } from "./static-replay-viewer.ts";

export const REPLAY_CAPABILITY_TTL_MS = 15 * 60_000;

const REPLAY_PATH = /\/v2\/episode-requests\/([^/?#]+)\/artifacts\/replay$/;

const PURPOSE = "replay-capability";

/** An episode id as stored: coworld's client sends the bare UUID (`episode_id: UUID`). */
const episodeIdOf = (id: string): string => (uuidPattern.test(id) ? `ereq_${id}` : id);

/**
 * The episode a session is for: `episode_id`, or the one whose replay address `replay_uri` is.
 * `episode_id` may also be the played episode's id (a bare UUID, what an episode request answers
 * as `episode_id` beside its `replay_url`): then `played` is checked against the episode the
 * address names once that is read, so a replay is still opened only for its own episode.
 */
function episodeOf(body: ReplaySessionCreate): { episode: string; played?: string } {
  const named = REPLAY_PATH.exec(new URL(body.replay_uri).pathname)?.[1];
  const fromUri = named === undefined ? undefined : episodeIdOf(decodeURIComponent(named));
  const given = body.episode_id ? episodeIdOf(body.episode_id) : undefined;
  if (given && fromUri && given !== fromUri) {
    if (body.episode_id && uuidPattern.test(body.episode_id))
      return { episode: fromUri, played: body.episode_id };
    throw mismatch(body, fromUri);
  }
  const episode = given ?? fromUri;
  if (!episode)
    throw invalidInput(
      ["body", "replay_uri"],
      "name the episode: give episode_id, or the episode's replay address (…/v2/episode-requests/{id}/artifacts/replay)",
      "value_error",
      body.replay_uri,
    );
  return { episode };
}

function mismatch(body: ReplaySessionCreate, fromUri: string) {
  return invalidInput(
    ["body", "replay_uri"],
    `the replay address is of episode ${fromUri}, not of episode_id ${body.episode_id ?? ""}`,
    "value_error",
    body.replay_uri,
  );
}

/** The viewer's path and the capability's path (both relative to the API's base URL). */
export async function openReplaySession(
  db: Kysely<Database>,
  box: SecretBox,
  blobs: BlobStore,
  identity: Identity,
  body: ReplaySessionCreate,
  now = Date.now(),
): Promise<ReplayPaths> {
  const coworld = await coworldOfBody(db, body.coworld_id);
  const viewer = await viewerOf(db, blobs, coworld.id, ["body", "coworld_id"]);
  if (!viewer)
    throw invalidInput(
      ["body", "coworld_id"],
      `${coworld.name} ${coworld.version} has no replay_viewer play module`,
      "value_error",
      body.coworld_id,
    );
  // 404 for an episode this caller may not read, exactly as its replay artifact answers.
  const named = episodeOf(body);
  const episode = await getEpisodeRow(db, identity, named.episode);
  if (named.played !== undefined && episode.job_id !== named.played)
    throw mismatch(body, episode.id);
  if (episode.coworld_id !== coworld.id)
    throw invalidInput(
      ["body", "coworld_id"],
      `episode ${episode.id} was not played on ${coworld.name} ${coworld.version}`,
      "value_error",
      body.coworld_id,
    );
  return replayPaths(box, viewer, episode.id, now);
}

/** The viewer's path and a fresh capability's path for one episode's replay. */
export interface ReplayPaths {
  viewerPath: string;
  replayPath: string;
  /** A static viewer reads the replay's address from `?replay=`; ours, from the fragment. */
  replayInQuery: boolean;
}

export function replayPaths(
  box: SecretBox,
  viewer: ReplayViewer,
  episodeId: string,
  now = Date.now(),
): ReplayPaths {
  const granted = `${episodeId}.${(now + REPLAY_CAPABILITY_TTL_MS).toString(36)}`;
  return {
    viewerPath: playModuleEntryPath(viewer.module),
    replayPath: `/v2/replays/${granted}.${box.sign(PURPOSE, granted)}`,
    replayInQuery: viewer.replayInQuery,
  };
}

/** The coworld version's replay viewer; a static bundle that cannot be used is a 422 at `loc`. */
export async function viewerOf(
  db: Kysely<Database>,
  blobs: BlobStore,
  coworldId: string,
  loc: (string | number)[],
): Promise<ReplayViewer | undefined> {
  try {
    return await replayViewerOf(db, blobs, coworldId);
  } catch (error) {
    if (error instanceof StaticViewerError) throw invalidInput(loc, error.message);
    throw error;
  }
}

/**
 * A replay session for a link on a page (no body to post, maybe no token): the episode's own
 * coworld's viewer. Only someone who may read the episode gets one, as with a posted session.
 */
export async function openEpisodeReplay(
  db: Kysely<Database>,
  box: SecretBox,
  blobs: BlobStore,
  identity: Identity,
  episodeId: string,
  now = Date.now(),
): Promise<ReplayPaths> {
  const episode = await getEpisodeRow(db, identity, episodeId);
  const replay = await db
    .selectFrom("artifacts")
    .select("sha256")
    .where("episode_request_id", "=", episode.id)
    .where("name", "=", "replay")
    .executeTakeFirst();
  if (!replay) {
    if (episode.artifacts_expired_at !== null) throw artifactsExpired(episode.id);
    throw invalidInput(
      ["path", "episode_request_id"],
      `episode ${episode.id} has no replay (it is ${episode.status})`,
      "value_error",
      episode.id,
    );
  }
  const viewer = await viewerOf(db, blobs, episode.coworld_id, ["path", "episode_request_id"]);
  if (!viewer)
    throw invalidInput(
      ["path", "episode_request_id"],
      `the coworld of episode ${episode.id} has no replay_viewer play module`,
      "value_error",
      episode.id,
    );
  return replayPaths(box, viewer, episode.id, now);
}

/**
 * What `openEpisodeReplay`'s refusal means for a person following the link; null for a failure
 * that is not a refusal (a query that failed), which stays an error.
 */
export async function whyNoReplay(
  db: Kysely<Database>,
  identity: Identity,
  episodeId: string,
  error: unknown,
): Promise<ReplayUnavailable | null> {
  if (error instanceof InputError)
    return { kind: "no_replay", reason: error.items[0]?.msg ?? error.message };
  if (!(error instanceof ServiceError)) return null;
  if (error.status === 404) return { kind: "not_found" };
  if (error.type !== "artifacts_expired") return null;
  const episode = await getEpisodeRow(db, identity, episodeId);
  return { kind: "expired", expiredAt: episode.artifacts_expired_at };
}

/** The replay a capability grants; 404 when it is forged, expired or the replay is missing. */
export async function readReplay(
  db: Kysely<Database>,
  blobs: BlobStore,
  box: SecretBox,
  capability: string,
  now = Date.now(),
): Promise<Buffer> {
  const [episode = "", expires = "", mac = "", ...rest] = capability.split(".");
  const valid =
    rest.length === 0 &&
    box.verify(PURPOSE, `${episode}.${expires}`, mac) &&
    parseInt(expires, 36) > now;
  if (!valid) throw notFound("replay capability");
  return readArtifact(db, blobs, episode, "replay");
}

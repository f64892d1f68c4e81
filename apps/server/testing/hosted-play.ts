// Test support for hosted play on a test league's coworld: GridRush's play modules uploaded as
// the commissioner, and a hosted game of GridRush's two-slot variant paced for people.
import { join } from "node:path";

import type { HostedGameCreateResponse, HostedGameJoinResponse } from "@gauntlet/core";

import { packDirectory } from "../src/blobs/tarball.ts";
import { client, type HttpResult } from "./http.ts";
import { GRIDRUSH_DIR, type TestLeague } from "./test-league.ts";

/** GridRush's folder under `play/` for each kind of play module. */
const PLAY_MODULE_DIRS = { player_client: "client", replay_viewer: "replay" } as const;

/** Uploads GridRush's play module of `kind` to the league's coworld; the caller checks the answer. */
export async function uploadGridrushPlayModule(
  url: string,
  tl: Pick<TestLeague, "coworldId" | "commissioner">,
  kind: keyof typeof PLAY_MODULE_DIRS,
): Promise<Response> {
  return fetch(`${url}/v2/coworlds/${tl.coworldId}/play-modules?kind=${kind}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${tl.commissioner.token}`,
      "content-type": "application/octet-stream",
    },
    body: new Uint8Array(await packDirectory(join(GRIDRUSH_DIR, "play", PLAY_MODULE_DIRS[kind]))),
  });
}

/** Three turns, each waiting up to 10 s for a person's move, and a minute for the seats to connect. */
export const PEOPLE_PACED_GAME = { turns: 3, turn_timeout_ms: 10_000, connect_timeout_ms: 60_000 };

/** Opens a hosted game of the duel variant, paced for people, as the league's commissioner. */
export function createHostedDuel(
  url: string,
  tl: Pick<TestLeague, "coworldId" | "commissioner">,
  more: Record<string, unknown> = {},
): Promise<HttpResult<HostedGameCreateResponse>> {
  return client(url, tl.commissioner.token).post<HostedGameCreateResponse>(
    "/v2/coworlds/play/session",
    { coworld_id: tl.coworldId, variant_id: "duel-small", ...more, game_config: PEOPLE_PACED_GAME },
  );
}

/** Takes a free slot of the hosted game `id`, anonymously. */
export function joinHostedGame(
  url: string,
  id: string,
): Promise<HttpResult<HostedGameJoinResponse>> {
  return client(url).post<HostedGameJoinResponse>(`/v2/coworlds/play/session/${id}/join`);
}

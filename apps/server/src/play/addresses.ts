// The absolute addresses of play that the routes answer: pages, seats' sockets, the player
// client on a seat and the replay viewer on a capability. The domain functions give paths; the
// public base URL (http/public-address.ts) makes them absolute here, at the edge only.
import type { HostedGameCreateResponse, HostedGameJoinResponse, PlayModule } from "@gauntlet/core";

import { absoluteTo, webSocketTo } from "../http/public-address.ts";
import type { HostedJoin } from "./hosted-games.ts";
import { playModuleEntryPath } from "./play-modules.ts";
import type { ReplayPaths } from "./replays.ts";
import type { SeatAccess } from "./sessions.ts";

/**
 * The player client's page connected to a seat's socket: the socket's address (with its join
 * token) is in the fragment, which the browser never sends.
 */
export function clientUrl(base: string, access: SeatAccess): string | null {
  if (!access.client) return null;
  const socket = webSocketTo(base, access.socketPath);
  return `${absoluteTo(base, playModuleEntryPath(access.client))}#ws=${encodeURIComponent(socket)}`;
}

/**
 * The replay viewer's page on a capability: in the fragment (never in logs or a Referer), or in
 * `?replay=` for a static viewer, whose contract reads it there (the capability is short-lived
 * and the module's pages send no Referer).
 */
export function viewerUrl(base: string, paths: ReplayPaths): string {
  const replay = encodeURIComponent(absoluteTo(base, paths.replayPath));
  const viewer = absoluteTo(base, paths.viewerPath);
  return paths.replayInQuery ? `${viewer}?replay=${replay}` : `${viewer}#replay=${replay}`;
}

/** A joined hosted slot as the hosted service's clients read it. */
export function joinedAt(base: string, joined: HostedJoin): HostedGameJoinResponse {
  return {
    player_url: webSocketTo(base, joined.access.socketPath),
    slot: joined.slot,
    player: joined.player,
    client_url: clientUrl(base, joined.access),
  };
}

/** A hosted session (or its creation's answer) with its join and lobby pages absolute. */
export function withAbsolutePages<
  T extends Pick<HostedGameCreateResponse, "join_url" | "lobby_url">,
>(base: string, session: T): T {
  return {
    ...session,
    join_url: absoluteTo(base, session.join_url),
    lobby_url: absoluteTo(base, session.lobby_url),
  };
}

/** A play module with its entry file's address absolute. */
export function withAbsoluteEntry(base: string, module: PlayModule): PlayModule {
  return { ...module, entry_url: absoluteTo(base, module.entry_url) };
}

// Hosted play sessions (docs/api.md, "Lobbies, hosted play and play modules"; a person plays in the
// browser).
import {
  CreatePlaySession,
  PlaySession,
  PlaySessionParams,
  PlaySessionSocketInfo,
  PlaySessionSocketQuery,
} from "../../models/play-session.ts";
import { defineOperation } from "../operation.ts";

export const playSessionOperations = {
  createPlaySession: defineOperation({
    id: "createPlaySession",
    method: "POST",
    path: "/v2/play-sessions",
    tag: "Lobbies",
    summary: "Play a coworld in the browser against policies",
    description:
      "Queues an episode with the caller in seat 0 and `opponents` in the others, and answers `join_url`: the coworld version's `player_client` play module, connected to the game's seat through this service (422 `body.coworld_id` when the version has no player client). The episode runs on a runner of `run` argv jobs (the sandbox runtime, or process on a runner that trusts all code); the session ends when the game does.",
    auth: "required",
    access: "user",
    complexity: 50,
    body: CreatePlaySession,
    status: 201,
    response: PlaySession,
  }),
  getPlaySession: defineOperation({
    id: "getPlaySession",
    method: "GET",
    path: "/v2/play-sessions/{play_session_id}",
    tag: "Lobbies",
    summary: "A play session (its person or an admin)",
    auth: "required",
    access: "owner",
    complexity: 1,
    params: PlaySessionParams,
    status: 200,
    response: PlaySession,
  }),
  playSessionSocket: defineOperation({
    id: "playSessionSocket",
    method: "GET",
    path: "/v2/play-sessions/{play_session_id}/socket",
    tag: "Lobbies",
    summary: "The person's seat (WebSocket)",
    description:
      'Upgrade to a WebSocket with the join token from `join_url` as `token`: frames pass unchanged between the browser and the game\'s player socket (the coworld\'s player protocol), beside the server\'s own `PlaySocketNotice` frames (`{type: "gauntlet.connection", state: "restoring" | "restored", message}`) while the game\'s connection to the server is being restored. A wrong token or an ended session closes the socket with code 4401 or 4410. A plain GET answers this description.',
    auth: "none",
    complexity: 1,
    params: PlaySessionParams,
    query: PlaySessionSocketQuery,
    status: 200,
    response: PlaySessionSocketInfo,
  }),
  playSessionRelay: defineOperation({
    id: "playSessionRelay",
    method: "GET",
    path: "/v2/play-sessions/{play_session_id}/relay",
    tag: "Runners",
    summary: "The game's side of a person's seat (WebSocket, for the runner)",
    description:
      "The runner that plays the episode connects here with the relay token of its leased job and bridges the frames to the game's player socket. When the connection drops without an end (not 1000, 4401, 4410), the runner connects again with the same token, through the balancer; a new connection replaces the old one.",
    auth: "none",
    complexity: 1,
    params: PlaySessionParams,
    query: PlaySessionSocketQuery,
    status: 200,
    response: PlaySessionSocketInfo,
  }),
} as const;

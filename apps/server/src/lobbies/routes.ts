// The handlers of the lobby operations.
import { Lobby } from "@gauntlet/core";

import { defineHandlers } from "../http/handler.ts";
import { once } from "../http/idempotency.ts";
import { endLobby } from "./lobby-end.ts";
import { launchLobby } from "./lobby-launch.ts";
import { getLobby, lobbyAccess } from "./lobby-reads.ts";
import { cancelLobby, createLobby, setSeat, updateLobby } from "./lobby-setup.ts";
import { startLobby } from "./lobby-start.ts";
import { claimSeat, leaveLobby, removeSeatPlayer } from "./seat-claims.ts";

export const lobbyHandlers = defineHandlers({
  getLobbyAccess: async ({ identity, params, app }) =>
    lobbyAccess(app.store.db, identity, params.league_id),
  createLobby: async ({ identity, params, body, app }) => {
    const create = () => createLobby(app.store.db, identity, params.league_id, body);
    const key = body.idempotency_key;
    if (key === undefined) return create();
    // The body's key (the hosted service's field) works like the Idempotency-Key header: a retry
    // answers the first lobby.
    const result = await once(
      app.store.db,
      `${identity.subjectId}:createLobby:body`,
      key,
      { params, body },
      async () => ({ status: 201, body: await create() }),
    );
    return Lobby.parse(result.body);
  },
  getLobby: async ({ identity, params, app }) => getLobby(app.store.db, identity, params.lobby_id),
  claimLobbySeat: async ({ identity, params, body, app }) =>
    claimSeat(app.store.db, identity, params.lobby_id, params.position, body.policy_version_id),
  leaveLobby: async ({ identity, params, app }) =>
    leaveLobby(app.store.db, identity, params.lobby_id),
  startLobby: async ({ identity, params, app }) =>
    startLobby(app.store.db, app.events.bus, identity, params.lobby_id),
  cancelLobby: async ({ identity, params, app }) =>
    cancelLobby(app.store.db, identity, params.lobby_id),
  updateLobby: async ({ identity, params, body, app }) =>
    updateLobby(app.store.db, identity, params.lobby_id, body),
  setLobbySeat: async ({ identity, params, body, app }) =>
    setSeat(app.store.db, identity, params.lobby_id, params.position, body),
  removeLobbySeatPlayer: async ({ identity, params, app }) =>
    removeSeatPlayer(app.store.db, identity, params.lobby_id, params.position),
  launchLobby: async ({ identity, params, app }) =>
    launchLobby(app.store.db, app.secrets, identity, params.lobby_id),
  endLobby: async ({ identity, params, app }) => {
    const lobby = await endLobby(app.store.db, identity, params.lobby_id);
    if (lobby.play_session_id)
      app.play.relay.closeSession(lobby.play_session_id, "the lobby was ended");
    return lobby;
  },
});

// The handlers of the play-module operations.
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { PLAY_MODULE_HEADERS } from "./content-types.ts";
import { getPlayModule, listPlayModules, readPlayModuleFile, uploadPlayModule } from "./play-modules.ts";
import { createPlaySession, getPlaySession } from "./play-sessions.ts";

export const playModuleHandlers = defineHandlers({
  uploadPlayModule: async ({ identity, params, query, body, app, request }) =>
    uploadPlayModule(app.store.db, app.blobs, identity, params.coworld_id, query, body, app.baseUrl(request)),
  listPlayModules: async ({ params, app, request }) => listPlayModules(app.store.db, params.coworld_id, app.baseUrl(request)),
  getPlayModule: async ({ params, app, request }) => getPlayModule(app.store.db, params.play_module_id, app.baseUrl(request)),
  getPlayModuleFile: async ({ params, app, reply }) => {
    const file = await readPlayModuleFile(app.store.db, app.blobs, params.play_module_id, params.file_path);
    void reply.code(200).headers(PLAY_MODULE_HEADERS).type(file.contentType).send(file.bytes);
    return REPLIED;
  },
});

const SOCKET_INFO = {
  protocol: "websocket" as const,
  description: "Upgrade this request to a WebSocket with the session's token: frames pass unchanged between the person's browser and the game's seat.",
};

export const playSessionHandlers = defineHandlers({
  createPlaySession: async ({ identity, body, app, request }) => createPlaySession(app.store.db, app.secrets, identity, body, app.baseUrl(request)),
  getPlaySession: async ({ identity, params, app }) => getPlaySession(app.store.db, identity, params.play_session_id),
  // Upgrades are taken by relay.ts before these run; a plain GET reads what the address is for.
  playSessionSocket: async () => SOCKET_INFO,
  playSessionRelay: async () => SOCKET_INFO,
});

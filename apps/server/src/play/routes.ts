// The handlers of the play-module operations.
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { PLAY_MODULE_HEADERS } from "./content-types.ts";
import { getPlayModule, listPlayModules, readPlayModuleFile, uploadPlayModule } from "./play-modules.ts";

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

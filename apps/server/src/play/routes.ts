// The handlers of the play-module operations.
import { basePathOf } from "../home/base-path.ts";
import { defineHandlers, REPLIED } from "../http/handler.ts";
import { wantsHtml } from "../http/not-found-page.ts";
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_HEADERS } from "../http/page-headers.ts";
import { absoluteTo } from "../http/public-address.ts";
import { notFound, ServiceError } from "../shared/errors.ts";
import {
  clientUrl,
  joinedAt,
  viewerUrl,
  withAbsoluteEntry,
  withAbsolutePages,
} from "./addresses.ts";
import { PLAY_MODULE_HEADERS } from "./content-types.ts";
import {
  createHostedGame,
  getHostedGame,
  joinHostedGame,
  joinPagePath,
  listHostedGames,
  lobbyPagePath,
  terminateHostedGame,
} from "./hosted-games.ts";
import { joinPage, lobbyPage, noGamePage } from "./hosted-pages.ts";
import { openToStrangers } from "./joinable.ts";
import {
  getPlayModule,
  listPlayModules,
  readPlayModuleFile,
  uploadPlayModule,
} from "./play-modules.ts";
import { createPlaySession, getPlaySession } from "./play-sessions.ts";
import { replayUnavailablePage } from "./replay-unavailable-page.ts";
import {
  openEpisodeReplay,
  openReplaySession,
  readReplay,
  whyNoReplay,
  type ReplayPaths,
} from "./replays.ts";
import { seatView } from "./seat-view.ts";
import { currentSession } from "./sessions.ts";

export const playModuleHandlers = defineHandlers({
  uploadPlayModule: async ({ identity, params, query, body, app, request }) =>
    withAbsoluteEntry(
      app.baseUrl(request),
      await uploadPlayModule(app.store.db, app.blobs, identity, params.coworld_id, query, body),
    ),
  listPlayModules: async ({ params, app, request }) => {
    const base = app.baseUrl(request);
    const modules = await listPlayModules(app.store.db, params.coworld_id);
    return modules.map((m) => withAbsoluteEntry(base, m));
  },
  getPlayModule: async ({ params, app, request }) =>
    withAbsoluteEntry(
      app.baseUrl(request),
      await getPlayModule(app.store.db, params.play_module_id),
    ),
  getPlayModuleFile: async ({ params, app, reply }) => {
    const file = await readPlayModuleFile(
      app.store.db,
      app.blobs,
      params.play_module_id,
      params.file_path,
    );
    void reply.code(200).headers(PLAY_MODULE_HEADERS).type(file.contentType).send(file.bytes);
    return REPLIED;
  },
});

const SOCKET_INFO = {
  protocol: "websocket" as const,
  description:
    "Upgrade this request to a WebSocket with the session's token: frames pass unchanged between the person's browser and the game's seat.",
};

export const playSessionHandlers = defineHandlers({
  createPlaySession: async ({ identity, body, app, request }) => {
    const { session, access } = await createPlaySession(app.store.db, app.secrets, identity, body);
    return { ...session, join_url: clientUrl(app.baseUrl(request), access) };
  },
  getPlaySession: async ({ identity, params, app }) =>
    getPlaySession(app.store.db, identity, params.play_session_id),
  // Upgrades are taken by relay.ts before these run; a plain GET reads what the address is for.
  playSessionSocket: async ({ params, query, app, request, reply }) => {
    // Read by the seat's page, which runs in an opaque origin: the join token is the credential.
    reply.header("access-control-allow-origin", "*");
    const seat = await seatView(
      app.store.db,
      app.secrets,
      app.blobs,
      params.play_session_id,
      query.token,
    );
    if (seat === undefined) return SOCKET_INFO;
    const replay = seat.replay === null ? null : viewerUrl(app.baseUrl(request), seat.replay);
    return { ...SOCKET_INFO, session: { ...seat.view, replay_url: replay } };
  },
  playSessionRelay: async () => SOCKET_INFO,
});

export const hostedGameHandlers = defineHandlers({
  createHostedGame: async ({ identity, body, app, request }) =>
    withAbsolutePages(
      app.baseUrl(request),
      await createHostedGame(app.store.db, app.secrets, identity, body),
    ),
  listHostedGames: async ({ identity, app, request }) => {
    const base = app.baseUrl(request);
    const sessions = await listHostedGames(app.store.db, identity);
    return sessions.map((s) => withAbsolutePages(base, s));
  },
  getHostedGame: async ({ identity, params, app, request }) =>
    withAbsolutePages(
      app.baseUrl(request),
      await getHostedGame(app.store.db, identity, params.session_id),
    ),
  joinHostedGame: async ({ identity, params, app, request }) =>
    joinedAt(
      app.baseUrl(request),
      await joinHostedGame(app.store.db, app.secrets, identity, params.session_id),
    ),
  terminateHostedGame: async ({ identity, params, app, request }) =>
    withAbsolutePages(
      app.baseUrl(request),
      await terminateHostedGame(app.store.db, app.play.relay, identity, params.session_id),
    ),
  hostedGameJoinPage: async ({ params, app, request, reply }) => {
    // The page joins as nobody in particular: a session nobody may join through it (solo, full,
    // ended) is the 404 of one that does not exist, as the join itself answers — as a page.
    const state = await currentSession(app.store.db, params.session_id).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404) return null;
      throw error;
    });
    if (state === null || !openToStrangers(state)) {
      reply.code(404);
      return noGamePage(params.session_id);
    }
    return joinPage(state, absoluteTo(app.baseUrl(request), lobbyPagePath(state.row.id)));
  },
  hostedGameJoinSubmit: async ({ params, app, request, reply }) => {
    const base = app.baseUrl(request);
    try {
      // The page joins as nobody in particular: a browser form carries no token.
      const joined = await joinHostedGame(
        app.store.db,
        app.secrets,
        { kind: "anonymous" },
        params.session_id,
      );
      const lobby = absoluteTo(base, lobbyPagePath(params.session_id));
      await reply.redirect(clientUrl(base, joined.access) ?? lobby, 302);
      return REPLIED;
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        reply.code(404);
        return noGamePage(params.session_id);
      }
      if (!(error instanceof ServiceError) || error.status !== 409) throw error;
      const state = await currentSession(app.store.db, params.session_id);
      reply.code(409);
      return joinPage(state, absoluteTo(base, lobbyPagePath(state.row.id)), error.message);
    }
  },
  hostedGameLobbyPage: async ({ params, app, request }) => {
    const state = await currentSession(app.store.db, params.session_id);
    // A solo session has no lobby: its id tells a stranger nothing.
    if (state.row.kind === "solo") throw notFound("play session", params.session_id);
    return lobbyPage(state, absoluteTo(app.baseUrl(request), joinPagePath(state.row.id)));
  },
  createReplaySession: async ({ identity, body, app, request }) => {
    const paths = await openReplaySession(app.store.db, app.secrets, app.blobs, identity, body);
    return { viewer_url: viewerUrl(app.baseUrl(request), paths), ready: true };
  },
  openEpisodeReplay: async ({ identity, params, app, request, reply }) => {
    const id = params.episode_request_id;
    let paths: ReplayPaths;
    try {
      paths = await openEpisodeReplay(app.store.db, app.secrets, app.blobs, identity, id);
    } catch (error) {
      // A person following a page's link reads a page that says why there is no replay; API
      // clients (no Accept, or JSON first) keep the JSON error.
      const why = wantsHtml(request.method, request.headers.accept)
        ? await whyNoReplay(app.store.db, identity, id, error)
        : null;
      if (!why) throw error;
      const status = error instanceof ServiceError ? error.status : 422;
      const home = basePathOf(request.originalUrl, request.url, app.config.apiPrefix) || "/";
      void reply
        .code(status)
        .headers(PAGE_HEADERS)
        .header("content-security-policy", PAGE_CONTENT_SECURITY_POLICY)
        .type("text/html; charset=utf-8")
        .send(replayUnavailablePage(id, why, home));
      return REPLIED;
    }
    // The fragment carries the capability: it never reaches a server's logs or a Referer.
    await reply.redirect(viewerUrl(app.baseUrl(request), paths), 302);
    return REPLIED;
  },
  readReplayCapability: async ({ params, app, reply }) => {
    // Read by the sandboxed viewer (an opaque origin): the capability is the credential, so any
    // origin may read the answer (a 404 too, so that the viewer can say what went wrong); the
    // bytes are never rendered as a page of this origin.
    reply.header("access-control-allow-origin", "*");
    const bytes = await readReplay(app.store.db, app.blobs, app.secrets, params.capability);
    void reply
      .code(200)
      .type("application/octet-stream")
      .headers({
        "cache-control": "private, no-store",
        "content-security-policy": "sandbox; default-src 'none'",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      })
      .send(bytes);
    return REPLIED;
  },
});

// Assembles the HTTP service: base paths, request ids, body parsers, the request gate
// (authentication + shared budgets), one route per contract operation, and error bodies.
import Fastify, {
  errorCodes,
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";

import { buildOpenApi, contract, operations } from "@gauntlet/core";

import { CLIENT_CLOSED, isAuditedMethod, recordElevatedAction } from "./audit/audit-trail.ts";
import { auditHandlers } from "./audit/routes.ts";
import { Authenticator } from "./auth/authenticate.ts";
import { installRequestIdentity } from "./auth/request-identity.ts";
import type { SecretBox } from "./auth/secret-box.ts";
import type { BlobStore } from "./blobs/blob-store.ts";
import { bundleUploadHandlers } from "./bundle-uploads/routes.ts";
import { campaignHandlers } from "./campaign/routes.ts";
import { cogamesStatsHandlers } from "./cogames-stats/routes.ts";
import type { ServerConfig } from "./config.ts";
import { coworldLeagueSeedHandlers } from "./coworld-league-seeds/routes.ts";
import { coworldHandlers } from "./coworlds/routes.ts";
import { runnerHandlers } from "./episodes/queue-routes.ts";
import { episodeHandlers } from "./episodes/routes.ts";
import { experienceTopicRules } from "./evaluations/event-topics.ts";
import { bulkUploadHandlers, experienceRequestHandlers } from "./evaluations/routes.ts";
import type { EpisodeSettledEvent } from "./events/episode-settled.ts";
import type { TopicFanOut } from "./events/fan-out.ts";
import { LocalMessageBus, type MessageBus } from "./events/message-bus.ts";
import type { SignalChannel } from "./events/signals.ts";
import { combineTopicRules } from "./events/topic-rules.ts";
import { EVENTS_OPERATION_ID, installLiveEvents } from "./events/websocket-route.ts";
import { forumHandlers } from "./forums/routes.ts";
import { gameHandlers } from "./games/routes.ts";
import { homePageHandlers } from "./home/routes.ts";
import { webSessionHandlers } from "./home/session-routes.ts";
import { setAnswerHeaders } from "./http/answer-headers.ts";
import { createRequestGate } from "./http/authenticate-request.ts";
import { createUrlRewriter } from "./http/base-path.ts";
import { jsonDepth, JsonTooDeepError, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "./http/body-bounds.ts";
import type { BudgetGate } from "./http/budget-gate.ts";
import { clientBudgetKeyOf } from "./http/client-address.ts";
import { clientErrorHandler } from "./http/client-errors.ts";
import { corsHeaders, installPreflight } from "./http/cors.ts";
import { errorBody, installErrorHandling } from "./http/errors.ts";
import type { AppContext, Handlers, ReadinessCheck } from "./http/handler.ts";
import { lazyChildLoggerFactory } from "./http/lazy-child-logger.ts";
import { nodeServerFactory } from "./http/node-server.ts";
import { createProbeAnswer } from "./http/probe-answer.ts";
import { createPublicAddress, isTrustedPeer, trustedProxyList } from "./http/public-address.ts";
import { registerOperations } from "./http/register-operations.ts";
import { replayCharge } from "./http/replay-charge.ts";
import { requestIdOf } from "./http/request-id.ts";
import { JSON_TYPE, serialiserOf } from "./http/response-serialiser.ts";
import { closeAfterStrayUpgrade } from "./http/stray-upgrades.ts";
import { identityHandlers } from "./identity/routes.ts";
import { CommissionerRelay } from "./leagues/commissioner/runner-relay.ts";
import {
  COMMISSIONER_RELAY_OPERATION_IDS,
  commissionerJobHandlers,
  installCommissionerRelay,
} from "./leagues/commissioner/runner-routes.ts";
import { leagueTopicRules } from "./leagues/event-topics.ts";
import { competitionEventHandlers } from "./leagues/feed-routes.ts";
import type { LeaguePlay } from "./leagues/league-play.ts";
import { roundHandlers } from "./leagues/round-routes.ts";
import { leagueHandlers } from "./leagues/routes.ts";
import { standingsHandlers } from "./leagues/standings-routes.ts";
import { leagueSubmissionHandlers } from "./leagues/submission-routes.ts";
import { MemoryAttemptStore, type AttemptStore } from "./limiter/attempts.ts";
import { lobbyHandlers } from "./lobbies/routes.ts";
import { installPlayRelay, PLAY_RELAY_OPERATION_IDS, PlayRelay } from "./play/relay.ts";
import { hostedGameHandlers, playModuleHandlers, playSessionHandlers } from "./play/routes.ts";
import { failSession } from "./play/sessions.ts";
import { policyHandlers } from "./policies/routes.ts";
import { profileHandlers } from "./profiles/routes.ts";
import { reporterHandlers } from "./reporters/routes.ts";
import { LIVENESS, serviceHandlers, type BudgetsInfo } from "./service/routes.ts";
import type { Store } from "./store/database.ts";
import { tournamentViewHandlers } from "./tournament-view/routes.ts";
import { tournamentHandlers } from "./tournaments/routes.ts";
import { wikiHandlers } from "./wikis/routes.ts";

export interface AppDeps {
  config: ServerConfig;
  store: Store;
  blobs: BlobStore;
  secrets: SecretBox;
  onEpisodeSettled?: (event: EpisodeSettledEvent) => void;
  leaguePlay: LeaguePlay;
  budgets?: BudgetGate | undefined;
  budgetsInfo: () => BudgetsInfo;
  readiness?: readonly ReadinessCheck[];
  logger?: boolean;
  /** Tells every replica of revoked tokens (Redis when configured); this process only when absent. */
  signals?: SignalChannel | undefined;
  /** Where the two sockets of a human seat meet (Redis when configured); this process when absent. */
  playBus?: MessageBus | undefined;
  /** Where coworld commissioner sessions meet their runners (shared with the launcher); made over `playBus` when absent. */
  commissionerRelay?: CommissionerRelay | undefined;
  /** Failed sign-ins (Redis when configured); this process's memory when absent. */
  attempts?: AttemptStore | undefined;
  /** A live-events socket holding more unread bytes than this is dropped (default 1 MiB). */
  liveEventsMaxBufferedBytes?: number | undefined;
  /** Live-event subscribers written per turn of the event loop (0: all at once; events/fan-out.ts). */
  liveEventsFanOutChunk?: number | undefined;
  /** Open live-events sockets per client address and per user (events/websocket-route.ts). */
  liveEventsSocketCaps?: { perAddress?: number | undefined; perUser?: number | undefined };
}

// The operations answered as WebSocket upgrades (events/websocket-route.ts, play/relay.ts).
const UPGRADE_OPERATIONS = new Set([
  EVENTS_OPERATION_ID,
  ...PLAY_RELAY_OPERATION_IDS,
  ...COMMISSIONER_RELAY_OPERATION_IDS,
]);
const QUIETER_THAN_INFO = new Set(["warn", "error", "fatal", "silent"]);

export async function buildApp(deps: AppDeps): Promise<{
  app: FastifyInstance;
  context: AppContext;
  /** Watchers subscribed to live events on this replica. */
  liveWatchers: () => number;
}> {
  const { config, store } = deps;
  const rewrite = createUrlRewriter(config.apiPrefix, config.dataHosts);
  const trusted = config.trustedProxies.length ? trustedProxyList(config.trustedProxies) : null;
  const accessLogged =
    config.accessLog || config.logLevel === "debug" || config.logLevel === "trace";
  // `GET /healthz` answered before routing, as its route answers it (http/probe-answer.ts).
  const probe = createProbeAnswer({
    path: contract.healthz.path,
    body: serialiserOf(contract.healthz)(contract.healthz.response.parse(LIVENESS)),
    contentType: JSON_TYPE,
    rewrite,
    routeAll: accessLogged,
  });
  const app = Fastify({
    // Access logs are info lines: asking for them lowers a quieter level to info.
    logger:
      deps.logger === false
        ? false
        : {
            level:
              config.accessLog && QUIETER_THAN_INFO.has(config.logLevel) ? "info" : config.logLevel,
          },
    bodyLimit: MAX_BODY_BYTES,
    // Responses that take prepared header lines, and the probe answered ahead of routing.
    serverFactory: nodeServerFactory(probe),
    clientErrorHandler,
    // A line per request only when asked for (GAUNTLET_ACCESS_LOG=true, or debug); errors are always logged.
    logController: new LogController({
      disableRequestLogging: !accessLogged,
    }),
    rewriteUrl: (req) => rewrite(req.url ?? "/", req.headers.host),
    // request.ip is the client's address as the trusted proxies saw it (per-address sign-in limits).
    ...(trusted ? { trustProxy: (address: string) => isTrustedPeer(trusted, address) } : {}),
    // Errors fastify raises before routing (a malformed URL) get the same body as ours.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.code(error.statusCode ?? 400).send(errorBody("bad_request", error.message));
    },
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: requestIdOf,
  });

  // A closing server answers 503 to what still arrives (fastify): the probe included.
  app.addHook("preClose", async () => probe.drain());
  installRequestIdentity(app);
  installPreflight(app, config.corsOrigins);
  // JSON bodies are bounded in depth before they are parsed (see body-bounds.ts).
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  // An operation that takes a body of any media type gets its bytes, JSON included.
  const takesAnyType = (request: FastifyRequest) =>
    request.routeOptions.config.op?.bodyAnyMediaType === true;
  // A body sent to no route is not parsed (the 404 needs none): a 10 MB JSON body to a made-up
  // path held the event loop 311 ms, before any budget was drawn.
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    if (request.is404) {
      done(null, undefined);
      return;
    }
    if (takesAnyType(request)) {
      done(null, body);
      return;
    }
    const text = typeof body === "string" ? body : body.toString("utf8");
    const depth = jsonDepth(text);
    if (depth > MAX_JSON_DEPTH) done(new JsonTooDeepError(depth), undefined);
    // The default parser answers through `done`; what it returns carries nothing.
    else void parseJson(request, text, done);
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "buffer" },
    (request, body, done) => {
      if (request.is404) {
        done(null, undefined);
        return;
      }
      if (takesAnyType(request)) {
        done(null, body);
        return;
      }
      done(
        null,
        Object.fromEntries(
          new URLSearchParams(typeof body === "string" ? body : body.toString("utf8")),
        ),
      );
    },
  );
  app.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_req, body, done) =>
    done(null, body),
  );
  // Any other media type (text/plain's built-in parser too): bytes for the operations that take
  // any, the usual 415 for the rest.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    if (takesAnyType(request)) done(null, body);
    else
      done(
        new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers["content-type"]),
        undefined,
      );
  });

  const base = buildOpenApi(operations);
  const openApiByBase = new Map<string, Record<string, unknown>>();
  const publicBase = createPublicAddress({
    publicUrl: config.publicUrl,
    trustedProxies: config.trustedProxies,
    apiPrefix: config.apiPrefix,
    dataHosts: config.dataHosts,
    listening: () => listeningAddress(app, config),
  });
  const playRelay = new PlayRelay(deps.playBus ?? new LocalMessageBus(), {
    onGameLost: (id, _position, reason, errorType) => failSession(store.db, id, errorType, reason),
    onError: (error) => app.log.error({ err: error }, "play relay: failing a lost seat failed"),
  });
  app.addHook("onClose", async () => playRelay.close());
  const commissionerRelay =
    deps.commissionerRelay ?? new CommissionerRelay(deps.playBus ?? new LocalMessageBus());
  app.addHook("onClose", async () => commissionerRelay.shutdown());
  const context: AppContext = {
    config,
    store,
    auth: new Authenticator(store.db, deps.signals),
    readiness: [{ name: "store", check: () => store.ping() }, ...(deps.readiness ?? [])],
    blobs: deps.blobs,
    secrets: deps.secrets,
    events: { bus: deps.leaguePlay.bus, hub: deps.leaguePlay.hub },
    onEpisodeSettled: deps.onEpisodeSettled,
    play: { relay: playRelay },
    commissioners: commissionerRelay,
    attempts: deps.attempts ?? new MemoryAttemptStore(),
    openApi: () => base,
    baseUrl: publicBase,
  };

  // Every answer, a 404 included, carries its request id and its CORS headers, and an upgrade
  // request answered over HTTP is closed after it: one callback hook (it costs no promise).
  const cors = corsHeaders(config.corsOrigins);
  app.addHook("onRequest", (request, reply, done) => {
    setAnswerHeaders(request, reply);
    cors(request, reply);
    closeAfterStrayUpgrade(request, reply);
    done();
  });
  // An elevated admin's state-changing request is written to the audit trail once answered
  // (with the status it got), or — when its client left before the answer, which does not stop
  // the handler — with 499 once the connection closes: every such request that reached its
  // handler leaves one row. Callback hooks: every other request passes with one property read.
  const audited = new WeakSet<FastifyRequest>();
  const elevatedAction = (request: FastifyRequest) => {
    const identity = request.gauntletIdentity;
    return identity &&
      identity.kind !== "anonymous" &&
      identity.elevated &&
      isAuditedMethod(request.method)
      ? identity
      : null;
  };
  const audit = (request: FastifyRequest, status: number) => {
    const identity = elevatedAction(request);
    if (identity === null || audited.has(request)) return;
    audited.add(request);
    recordElevatedAction(context.store.db, {
      identity,
      operationId: request.routeOptions.config.op?.id ?? "unknown",
      method: request.method,
      url: request.url,
      status,
    }).catch((error: unknown) => {
      request.log.error({ err: error }, "audit trail: an elevated action was not recorded");
    });
  };
  app.addHook("preHandler", (request, reply, done) => {
    if (elevatedAction(request) !== null)
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) audit(request, CLIENT_CLOSED);
      });
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    audit(request, reply.statusCode);
    done();
  });
  const gateFor = createRequestGate(
    context.auth,
    deps.budgets,
    (request, path) => `${context.baseUrl(request)}${path}`,
  );

  const handlers: Handlers = {
    ...serviceHandlers(deps.budgetsInfo),
    ...identityHandlers,
    ...auditHandlers,
    ...gameHandlers,
    ...leagueHandlers,
    ...policyHandlers,
    ...coworldHandlers,
    ...episodeHandlers,
    ...runnerHandlers,
    ...commissionerJobHandlers,
    ...leagueSubmissionHandlers,
    ...roundHandlers,
    ...standingsHandlers(deps.leaguePlay.standings),
    ...competitionEventHandlers,
    ...experienceRequestHandlers,
    ...bulkUploadHandlers,
    ...reporterHandlers,
    ...bundleUploadHandlers,
    ...forumHandlers,
    ...wikiHandlers,
    ...profileHandlers,
    ...campaignHandlers,
    ...playModuleHandlers,
    ...lobbyHandlers,
    ...playSessionHandlers,
    ...hostedGameHandlers,
    ...tournamentHandlers,
    ...tournamentViewHandlers(deps.leaguePlay.standings),
    ...cogamesStatsHandlers,
    ...homePageHandlers,
    ...webSessionHandlers,
    ...coworldLeagueSeedHandlers,
    getOpenApi: async ({ request }) => {
      // The server of the document is the public address (configured, never the Host header).
      const url = publicBase(request);
      let doc = openApiByBase.get(url);
      if (!doc) {
        doc = { ...base, servers: [{ url, description: "this service" }] };
        if (openApiByBase.size < 100) openApiByBase.set(url, doc);
      }
      return doc;
    },
  };
  const upgradeOperations = Object.values(contract).filter((op) => UPGRADE_OPERATIONS.has(op.id));
  registerOperations(
    app,
    context,
    Object.values(contract).filter((op) => !UPGRADE_OPERATIONS.has(op.id)),
    handlers,
    gateFor,
  );
  // A typed `/docs/` reaches the reference, whose relative links need `/docs` (any base path).
  app.get("/docs/", async (_request, reply) => reply.redirect("../docs", 301));
  installErrorHandling(app, { prefix: config.apiPrefix, dataHosts: config.dataHosts });
  // The WebSocket plugin's hooks (on every request of its context) and its handler wrapper stay
  // with the routes that upgrade: a child context holding only them. Registered last, so that it
  // inherits the hooks and the error handler above; its routes still pass the request gate.
  let fanOut: TopicFanOut | undefined;
  await app.register(async (upgrades) => {
    // Both attach their wsHandler as the routes are added; the plugin reads it.
    installPlayRelay(upgrades, { db: store.db, relay: playRelay });
    installCommissionerRelay(upgrades, { db: store.db, relay: commissionerRelay });
    fanOut = await installLiveEvents(upgrades, {
      db: store.db,
      hub: deps.leaguePlay.hub,
      rules: combineTopicRules(leagueTopicRules, experienceTopicRules),
      auth: context.auth,
      clientKey: clientBudgetKeyOf,
      ...(deps.budgets ? { replayCharge: replayCharge(deps.budgets) } : {}),
      ...(deps.liveEventsSocketCaps?.perAddress !== undefined
        ? { maxSocketsPerAddress: deps.liveEventsSocketCaps.perAddress }
        : {}),
      ...(deps.liveEventsSocketCaps?.perUser !== undefined
        ? { maxSocketsPerUser: deps.liveEventsSocketCaps.perUser }
        : {}),
      ...(deps.liveEventsMaxBufferedBytes !== undefined
        ? { maxBufferedBytes: deps.liveEventsMaxBufferedBytes }
        : {}),
      ...(deps.liveEventsFanOutChunk !== undefined
        ? { fanOutChunk: deps.liveEventsFanOutChunk }
        : {}),
    });
    registerOperations(upgrades, context, upgradeOperations, handlers, gateFor);
  });
  return { app, context, liveWatchers: () => fanOut?.size ?? 0 };
}

/** `http://host:port` of the listening socket; a wildcard bind is reached on the loopback. */
function listeningAddress(app: FastifyInstance, config: ServerConfig): string {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

// Starts the service: store (migrated), first admin, shared budgets, HTTP.
import { existsSync } from "node:fs";
import { join } from "node:path";

import type { FastifyInstance } from "fastify";

import { bestEffort } from "@gauntlet/core";

import { buildApp } from "./app.ts";
import { loadSecretBox } from "./auth/secret-box.ts";
import { DirectoryBlobStore } from "./blobs/blob-store.ts";
import { S3BlobStore } from "./blobs/s3-blob-store.ts";
import type { Env, ServerConfig } from "./config.ts";
import { Evaluations } from "./evaluations/runtime.ts";
import { LocalMessageBus, RedisMessageBus, type MessageBus } from "./events/message-bus.ts";
import { RedisSignalChannel } from "./events/redis-signals.ts";
import { LocalSignalChannel, type SignalChannel } from "./events/signals.ts";
import type { AppContext } from "./http/handler.ts";
import { ensureFirstAdmin, type FirstAdmin } from "./identity/first-admin.ts";
import type { CommissionerLauncher } from "./leagues/commissioner/channel.ts";
import { noCommissionerRuntime } from "./leagues/commissioner/driver.ts";
import { runnerCommissionerLauncher } from "./leagues/commissioner/runner-launcher.ts";
import { CommissionerRelay } from "./leagues/commissioner/runner-relay.ts";
import { LeaguePlay } from "./leagues/league-play.ts";
import { RedisAttemptStore } from "./limiter/attempts-redis.ts";
import { MemoryAttemptStore } from "./limiter/attempts.ts";
import { budgetsInfoFromEnv, createLimiterFromEnv } from "./limiter/config.ts";
import { Retention } from "./retention/retention.ts";
import { retentionSettingsFrom } from "./retention/settings.ts";
import { openStore, type Store } from "./store/database.ts";
import { tightenDataDir } from "./store/private-files.ts";
import { TournamentPlay } from "./tournaments/runtime.ts";

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly context: AppContext;
  /** League play: its event bus and hub, its scheduler and its standings cache. */
  readonly leaguePlay: LeaguePlay;
  readonly store: Store;
  /** Signals between replicas (token revocations); Redis when configured. */
  readonly signals: SignalChannel;
  /** The API at the root of the alt host (127.0.0.1). */
  readonly url: string;
  /** The API under the prefix on the data host. */
  readonly dataUrl: string;
  readonly firstAdmin: FirstAdmin | null;
  /** The retention policy's compaction (it runs by itself; tests and benchmarks run it now). */
  readonly retention: Retention;
  /** Watchers subscribed to live events on this replica (a dropped one no longer counts). */
  liveWatchers(): number;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Env;
  logger?: boolean;
  /** An already opened store (tests isolate a PostgreSQL schema this way). */
  store?: Store;
  /** Routes outside the contract, added before listening: benchmarks compare against a bare route. */
  extraRoutes?: (app: FastifyInstance) => void;
  /** Starts leagues' coworld commissioners (a runner's sandbox); tests give a scripted one. */
  commissionerLauncher?: CommissionerLauncher;
}

export const BUDGETS_DOC_PATH = "/docs/rate-limits";

function positiveMs(env: Env, name: string, unit = "milliseconds"): number | undefined {
  const text = env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number of ${unit}, not ${JSON.stringify(text)}`);
  return value;
}

function nonNegativeMs(env: Env, name: string, unit = "milliseconds"): number | undefined {
  const text = env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(
      `${name} must be 0 or a positive number of ${unit}, not ${JSON.stringify(text)}`,
    );
  return value;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const store =
    options.store ??
    openStore({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      pgSchema: config.databaseSchema,
    });
  let leaguePlay: LeaguePlay | undefined;
  let signals: SignalChannel | undefined;
  let playBus: MessageBus | undefined;
  try {
    // An install made before the data directory was kept owner-only is tightened now.
    if (existsSync(config.dataDir)) tightenDataDir(config.dataDir);
    await store.migrate();
    const firstAdmin = await ensureFirstAdmin(store, config.dataDir);
    const limiter = createLimiterFromEnv(env, BUDGETS_DOC_PATH);
    // The two sockets of a human seat, and a commissioner's session and its runner, meet on this
    // channel, whichever replicas they reached.
    playBus = config.redisUrl
      ? new RedisMessageBus({
          url: config.redisUrl,
          channel: `${env.GAUNTLET_EVENTS_CHANNEL || "gauntlet:events"}:play`,
          onError: (error) =>
            process.stderr.write(`gauntlet-server: play relay: redis: ${error.message}\n`),
        })
      : new LocalMessageBus();
    const relayBus = playBus;
    const commissionerRelay = new CommissionerRelay(relayBus);
    // Coworld commissioners run on the runners unless this server is told it has none.
    const commissionerLauncher =
      options.commissionerLauncher ??
      (env.GAUNTLET_COMMISSIONER_RUNTIME === "off"
        ? noCommissionerRuntime
        : runnerCommissionerLauncher(store.db, commissionerRelay, {
            startupMs: positiveMs(env, "GAUNTLET_COMMISSIONER_STARTUP_MS"),
          }));
    // GAUNTLET_SCHEDULER=off: rounds start only by trigger-round (tests, a replica kept for reads).
    const play = await LeaguePlay.start(store.db, {
      redisUrl: config.redisUrl,
      eventsChannel: env.GAUNTLET_EVENTS_CHANNEL || undefined,
      scheduler: env.GAUNTLET_SCHEDULER !== "off",
      schedulerTickMs: positiveMs(env, "GAUNTLET_SCHEDULER_TICK_MS"),
      eventsPollMs: positiveMs(env, "GAUNTLET_EVENTS_POLL_MS"),
      // A round's events come in a burst of transactions a few ms apart: held 15 ms, a watcher
      // gets them in one write, half the replica's CPU a delivery (bench watchers).
      eventsLingerMs: nonNegativeMs(env, "GAUNTLET_EVENTS_LINGER_MS") ?? 15,
      standingsRevalidateMs: positiveMs(env, "GAUNTLET_STANDINGS_REVALIDATE_MS"),
      commissionerLauncher,
      commissioner: {
        scheduleEveryMs: positiveMs(env, "GAUNTLET_COMMISSIONER_SCHEDULE_MS"),
        replyTimeoutMs: positiveMs(env, "GAUNTLET_COMMISSIONER_REPLY_TIMEOUT_MS"),
        lifetimeMs: positiveMs(env, "GAUNTLET_COMMISSIONER_LIFETIME_MS"),
        pollMs: positiveMs(env, "GAUNTLET_COMMISSIONER_POLL_MS"),
        leaseMs: positiveMs(env, "GAUNTLET_COMMISSIONER_LEASE_MS"),
      },
      onError: (error, context) =>
        process.stderr.write(
          `gauntlet-server: ${context}: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
    });
    leaguePlay = play;
    // Token revocations reach every replica's authentication cache on this channel.
    signals = config.redisUrl
      ? new RedisSignalChannel({
          url: config.redisUrl,
          channel: `${env.GAUNTLET_EVENTS_CHANNEL || "gauntlet:events"}:signals`,
          onError: (error) =>
            process.stderr.write(`gauntlet-server: signals: redis: ${error.message}\n`),
        })
      : new LocalSignalChannel();
    const channel = signals;
    const attempts = config.redisUrl
      ? new RedisAttemptStore({
          url: config.redisUrl,
          keyPrefix: `${env.GAUNTLET_EVENTS_CHANNEL || "gauntlet"}:attempts:`,
          onError: (error) =>
            process.stderr.write(`gauntlet-server: sign-in attempts: redis: ${error.message}\n`),
        })
      : new MemoryAttemptStore();
    const evaluations = new Evaluations(store.db, play.bus, (error, context) =>
      process.stderr.write(
        `gauntlet-server: ${context}: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
    evaluations.sweep();
    const tournaments = new TournamentPlay(store.db, play.bus, (error, context) =>
      process.stderr.write(
        `gauntlet-server: ${context}: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
    tournaments.sweep();
    const blobs =
      config.blobStore.kind === "s3"
        ? new S3BlobStore(config.blobStore)
        : new DirectoryBlobStore(join(config.dataDir, "blobs"));
    // The retention policy and the compaction (README "What the data directory keeps").
    const retention = new Retention(
      { db: store.db, blobs, engine: store.engine },
      retentionSettingsFrom(env),
      (error) =>
        process.stderr.write(
          `gauntlet-server: retention: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
    );
    const { app, context, liveWatchers } = await buildApp({
      config,
      store,
      blobs,
      secrets: loadSecretBox(config.dataDir, env.GAUNTLET_SECRET_KEY),
      budgets: limiter,
      leaguePlay: play,
      onEpisodeSettled: (event) => {
        play.onEpisodeSettled(event);
        evaluations.onEpisodeSettled(event);
      },
      budgetsInfo: () => budgetsInfoFromEnv(env, limiter.mode),
      // Bytes a watcher's socket may hold unread before it is dropped (docs/events.md).
      liveEventsMaxBufferedBytes: positiveMs(env, "GAUNTLET_EVENTS_MAX_BUFFERED_BYTES", "bytes"),
      // Watchers written per turn of the event loop, so requests are served during a fan-out.
      liveEventsFanOutChunk: nonNegativeMs(env, "GAUNTLET_EVENTS_FANOUT_CHUNK", "subscribers"),
      // Open live-events sockets a replica holds per client address and per user (docs/api.md).
      liveEventsSocketCaps: {
        perAddress: positiveMs(env, "GAUNTLET_EVENTS_MAX_SOCKETS_PER_ADDRESS", "sockets"),
        perUser: positiveMs(env, "GAUNTLET_EVENTS_MAX_SOCKETS_PER_USER", "sockets"),
      },
      signals: channel,
      playBus: relayBus,
      commissionerRelay,
      attempts,
      logger: options.logger ?? true,
      // Redis is optional to serving: without it the replica is degraded, not unready.
      readiness: [
        ...(limiter.readiness
          ? [
              {
                name: limiter.readiness.name,
                optional: true,
                check: () =>
                  withTimeout(
                    limiter.readiness?.check() ?? Promise.resolve(),
                    1000,
                    "the budget store did not answer within 1 s",
                  ),
              },
            ]
          : []),
        ...(config.redisUrl
          ? [
              {
                name: "signals",
                optional: true,
                check: async () => {
                  if (channel.trustEpoch() === undefined)
                    throw new Error(
                      "revocations are not heard from Redis: every request looks its token up",
                    );
                },
              },
            ]
          : []),
      ],
    });
    options.extraRoutes?.(app);
    await app.listen({ port: config.port, host: config.host });
    retention.start();
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    const altHost = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
    const dataHost = config.dataHosts[0] ?? "localhost";
    let closed = false;
    return {
      app,
      context,
      leaguePlay: play,
      store,
      signals: channel,
      retention,
      url: `http://${altHost.includes(":") ? `[${altHost}]` : altHost}:${port}`,
      dataUrl: `http://${dataHost}:${port}${config.apiPrefix}`,
      firstAdmin,
      liveWatchers,
      async close() {
        if (closed) return;
        closed = true;
        await play.scheduler.stop();
        await retention.stop();
        // Let requests in flight finish, but never wait forever on a connection that sends nothing.
        const force = setTimeout(() => app.server.closeAllConnections(), 5_000);
        try {
          await app.close();
        } finally {
          clearTimeout(force);
        }
        await evaluations.stop();
        context.auth.close();
        await channel.close();
        await relayBus.close();
        await tournaments.stop();
        await play.stop();
        await limiter.close();
        await attempts.close();
        await store.close();
      },
    };
  } catch (error) {
    // The startup error is the one to report; what was opened before it is closed if it can be.
    if (signals) await bestEffort(signals.close());
    if (playBus) await bestEffort(playBus.close());
    if (leaguePlay) await bestEffort(leaguePlay.stop());
    await bestEffort(store.close());
    throw error;
  }
}

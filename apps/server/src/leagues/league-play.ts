// League play inside one server: the event bus (Redis when configured), this replica's event
// hub for WebSocket subscribers, and the scheduler. Started and stopped with the server.
import type { Kysely } from "kysely";

import { settled } from "@gauntlet/core";

import { LocalEventBus, type EventBus } from "../events/bus.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import { EventHub } from "../events/hub.ts";
import { RedisEventBus } from "../events/redis-bus.ts";
import type { Database } from "../store/schema.ts";
import type { CommissionerLauncher } from "./commissioner/channel.ts";
import {
  CommissionerDriver,
  noCommissionerRuntime,
  type DriverOptions,
} from "./commissioner/driver.ts";
import { recordEpisodeSettled } from "./episode-events.ts";
import { renderCompetitionEvents } from "./feed.ts";
import { settleRound } from "./round-settle.ts";
import { LeagueScheduler } from "./scheduler.ts";
import { StandingsCache } from "./standings-read.ts";

export interface LeaguePlayOptions {
  redisUrl?: string | undefined;
  /** The Redis channel of this deployment's events (replicas of one deployment share it). */
  eventsChannel?: string | undefined;
  /** Run the scheduler (default true). Off, rounds start only by trigger-round and settle on completions. */
  scheduler?: boolean;
  schedulerTickMs?: number;
  eventsPollMs?: number;
  /** How long a burst of events waits for the rest before it goes to watchers (events/hub.ts). */
  eventsLingerMs?: number;
  /** How long a division's cached standings are served before they are checked again. */
  standingsRevalidateMs?: number;
  onError?: (error: unknown, context: string) => void;
  /** Starts coworld commissioners (a runner's sandbox); without it, such leagues' sessions are refused. */
  commissionerLauncher?: CommissionerLauncher;
  /** The commissioner driver's timings (tests shorten them). */
  commissioner?: Omit<DriverOptions, "onError">;
}

/** The same error again within a minute is not reported again (a reconnecting client repeats itself). */
function throttled(report: (error: Error) => void): (error: Error) => void {
  const seen = new Map<string, number>();
  return (error) => {
    const now = Date.now();
    const last = seen.get(error.message);
    if (last !== undefined && now - last < 60_000) return;
    if (seen.size > 100) seen.clear();
    seen.set(error.message, now);
    report(error);
  };
}

export class LeaguePlay {
  readonly db: Kysely<Database>;
  readonly bus: EventBus;
  readonly hub: EventHub;
  readonly scheduler: LeagueScheduler;
  /** Parsed standings by version, for reads. */
  readonly standings: StandingsCache;
  readonly #onError: (error: unknown, context: string) => void;
  readonly #pending = new Set<Promise<void>>();

  private constructor(
    db: Kysely<Database>,
    bus: EventBus,
    hub: EventHub,
    scheduler: LeagueScheduler,
    onError: (error: unknown, context: string) => void,
    standingsRevalidateMs: number | undefined,
  ) {
    this.standings = new StandingsCache({ revalidateMs: standingsRevalidateMs });
    this.db = db;
    this.bus = bus;
    this.hub = hub;
    this.scheduler = scheduler;
    this.#onError = onError;
  }

  static async start(db: Kysely<Database>, options: LeaguePlayOptions = {}): Promise<LeaguePlay> {
    const onError = options.onError ?? (() => undefined);
    const bus: EventBus = options.redisUrl
      ? new RedisEventBus({
          url: options.redisUrl,
          channel: options.eventsChannel,
          onError: throttled((e) => onError(e, "events: redis")),
        })
      : new LocalEventBus();
    try {
      // Not waiting for Redis: without it, each hub still reads the event log on its poll, so
      // events arrive late rather than never, and the server starts as the budgets do.
      void settled(bus.ready());
      const hub = await EventHub.start(db, bus, {
        render: renderCompetitionEvents,
        pollMs: options.eventsPollMs,
        lingerMs: options.eventsLingerMs,
        onError: (e) => onError(e, "events: hub"),
      });
      const commissioners = new CommissionerDriver(
        db,
        bus,
        options.commissionerLauncher ?? noCommissionerRuntime,
        { ...options.commissioner, onError },
      );
      const scheduler = new LeagueScheduler(db, bus, {
        tickMs: options.schedulerTickMs,
        onError: (e) => onError(e, "scheduler"),
        commissioners,
      });
      const play = new LeaguePlay(db, bus, hub, scheduler, onError, options.standingsRevalidateMs);
      bus.subscribe((rows) => play.standings.forget(rows));
      hub.onRows((rows) => play.standings.forget(rows));
      if (options.scheduler !== false) scheduler.start();
      return play;
    } catch (error) {
      await bus.close();
      throw error;
    }
  }

  /** The work queue's hook: an episode completed or failed (called once per final state). */
  onEpisodeSettled(event: EpisodeSettledEvent): void {
    const work = (async () => {
      const { roundId } = await recordEpisodeSettled(this.db, this.bus, event);
      if (roundId === null) return;
      const outcome = await settleRound(this.db, this.bus, roundId);
      if (outcome.settled) this.scheduler.wake();
    })().catch((error: unknown) => this.#onError(error, "episode settled"));
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    await Promise.allSettled([...this.#pending]);
    await this.hub.stop();
    await this.bus.close();
  }
}

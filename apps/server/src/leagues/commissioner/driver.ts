// The league driver for leagues run by their coworld's own commissioner: on each scheduler tick,
// per such league, it fails rounds whose session was lost, runs the migration handshake when the
// commissioner changed, starts a session for each pending round this replica can lease, and asks
// the commissioner for new rounds (at most every `scheduleEveryMs`, and only while a division is
// free). Sessions run in the background; a failure of the commissioner fails its round only, and
// the next tick tries again.
import { randomUUID } from "node:crypto";

import type { Kysely } from "kysely";

import { bestEffort, COMMISSIONER_MAX_LIFETIME_MS } from "@gauntlet/core";

import type { EventBus } from "../../events/bus.ts";
import type { Database, LeaguesTable } from "../../store/schema.ts";
import { idleDivisions } from "../idle-divisions.ts";
import {
  CommissionerFailure,
  type CommissionerLauncher,
  type CommissionerTarget,
} from "./channel.ts";
import { migrateLeague } from "./migration.ts";
import { resolveCommissioner, selectedRunnable, type ResolvedCommissioner } from "./resolve.ts";
import { failRound } from "./round-fail.ts";
import { claimRound, orphanedRounds, pendingRounds } from "./round-lease.ts";
import { runRound, type SessionTiming } from "./round-session.ts";
import { scheduleRounds } from "./schedule.ts";
import { CommissionerSession, type SentTap } from "./session.ts";

export interface DriverOptions {
  /** Between two scheduling sessions of one league. Default 60 s. */
  scheduleEveryMs?: number;
  /** A scheduling or migration reply, at most. Default 30 s. */
  replyTimeoutMs?: number;
  /** A round session's whole life. Default 10 minutes (upstream's max lifetime). */
  lifetimeMs?: number;
  pollMs?: number;
  leaseMs?: number;
  onError?: (error: unknown, context: string) => void;
  /** Sees every message sent to a commissioner (protocol tests). */
  tap?: SentTap;
}

/** The launcher of a server that runs no coworld commissioner: every session is refused. */
export const noCommissionerRuntime: CommissionerLauncher = {
  open: () =>
    Promise.reject(
      new CommissionerFailure("refused", "this server has no runtime for coworld commissioners"),
    ),
};

/** The commissioner's log for a failed round; none when even that read fails (the process is gone). */
async function logOf(session: CommissionerSession): Promise<string> {
  try {
    return await session.log();
  } catch (error) {
    if (error instanceof CommissionerFailure) return "";
    throw error;
  }
}

type Coworld = Extract<ResolvedCommissioner, { kind: "coworld" }>;

export class CommissionerDriver {
  readonly #db: Kysely<Database>;
  readonly #bus: Pick<EventBus, "publish">;
  readonly #launcher: CommissionerLauncher;
  readonly #owner = `replica-${randomUUID()}`;
  readonly #scheduleEveryMs: number;
  readonly #replyMs: number;
  readonly #timing: SessionTiming;
  readonly #onError: (error: unknown, context: string) => void;
  readonly #tap: SentTap | undefined;
  readonly #sessions = new Map<string, Promise<void>>();
  readonly #lastSchedule = new Map<string, number>();
  readonly #stop = new AbortController();

  constructor(
    db: Kysely<Database>,
    bus: Pick<EventBus, "publish">,
    launcher: CommissionerLauncher,
    options: DriverOptions = {},
  ) {
    this.#db = db;
    this.#bus = bus;
    this.#launcher = launcher;
    this.#scheduleEveryMs = options.scheduleEveryMs ?? 60_000;
    this.#replyMs = options.replyTimeoutMs ?? 30_000;
    this.#timing = {
      lifetimeMs: options.lifetimeMs ?? COMMISSIONER_MAX_LIFETIME_MS,
      pollMs: options.pollMs ?? 250,
      leaseMs: options.leaseMs ?? 30_000,
    };
    this.#onError = options.onError ?? (() => undefined);
    this.#tap = options.tap;
  }

  /** Leagues run by a coworld commissioner (paused or not): the built-in scheduler leaves them be. */
  async commissionedLeagueIds(): Promise<Set<string>> {
    const rows = await this.#db
      .selectFrom("leagues")
      .select(["id", "commissioner_config"])
      .execute();
    return new Set(rows.filter((r) => selectedRunnable(r) !== null).map((r) => r.id));
  }

  async tick(): Promise<void> {
    const leagues = await this.#db
      .selectFrom("leagues")
      .selectAll()
      .where("rounds_paused_at", "is", null)
      .where("disabled_at", "is", null)
      .execute();
    for (const league of leagues) {
      if (selectedRunnable(league) === null) continue;
      try {
        await this.#tickLeague(league);
      } catch (error) {
        // A session cut short by the server's own shutdown is no fault to report.
        if (this.#stop.signal.aborted) return;
        this.#onError(error, `commissioner of ${league.id}`);
      }
    }
  }

  async #tickLeague(league: LeaguesTable): Promise<void> {
    for (const id of await orphanedRounds(this.#db, league.id))
      if (!this.#sessions.has(id))
        await failRound(
          this.#db,
          this.#bus,
          id,
          "commissioner disconnected: the server running its session stopped",
          "",
        );
    const commissioner = await resolveCommissioner(this.#db, league);
    if (commissioner.kind !== "coworld") {
      if (commissioner.kind === "invalid") throw new Error(commissioner.reason);
      return;
    }
    for (const id of await pendingRounds(this.#db, league.id))
      this.#startSession(league, commissioner, id);
    const last = this.#lastSchedule.get(league.id) ?? 0;
    if (Date.now() - last < this.#scheduleEveryMs || !(await this.#freeDivision(league.id))) return;
    this.#lastSchedule.set(league.id, Date.now());
    if (league.commissioner_migration_version !== commissioner.version)
      await this.#withSession(league, commissioner, "migration", (session) =>
        migrateLeague(this.#db, session, league, commissioner.version, this.#replyMs),
      );
    const outcome = await this.#withSession(league, commissioner, "schedule", (session) =>
      scheduleRounds(this.#db, session, league, commissioner, this.#replyMs),
    );
    for (const why of outcome.refused)
      this.#onError(new Error(why), `commissioner of ${league.id}: round spec refused`);
    for (const id of outcome.created) this.#startSession(league, commissioner, id);
  }

  /** Whether an open division of the league has no unsettled round. */
  async #freeDivision(leagueId: string): Promise<boolean> {
    const free = await idleDivisions(this.#db)
      .select("d.id")
      .where("d.league_id", "=", leagueId)
      .executeTakeFirst();
    return free !== undefined;
  }

  async #withSession<T>(
    league: LeaguesTable,
    commissioner: Coworld,
    purpose: CommissionerTarget["purpose"],
    work: (session: CommissionerSession) => Promise<T>,
    roundId?: string,
  ): Promise<T> {
    const channel = await this.#launcher.open(
      {
        leagueId: league.id,
        coworldId: commissioner.coworld.id,
        runnableId: commissioner.runnableId,
        purpose,
        ...(roundId ? { roundId } : {}),
      },
      this.#stop.signal,
    );
    const session = new CommissionerSession(channel, this.#tap);
    // A server that stops does not wait out a reply (up to replyTimeoutMs): closing the session
    // ends the wait at once.
    const onStop = () => void bestEffort(session.close("the server is stopping"));
    this.#stop.signal.addEventListener("abort", onStop, { once: true });
    try {
      return await work(session);
    } finally {
      this.#stop.signal.removeEventListener("abort", onStop);
      await session.close(`${purpose} done`);
    }
  }

  #startSession(league: LeaguesTable, commissioner: Coworld, roundId: string): void {
    if (this.#sessions.has(roundId) || this.#stop.signal.aborted) return;
    const run = this.#runSession(league, commissioner, roundId)
      .catch((error: unknown) => this.#onError(error, `round ${roundId}`))
      .finally(() => this.#sessions.delete(roundId));
    this.#sessions.set(roundId, run);
  }

  async #runSession(league: LeaguesTable, commissioner: Coworld, roundId: string): Promise<void> {
    const round = await claimRound(this.#db, roundId, this.#owner, this.#timing.leaseMs);
    if (!round) return;
    let session: CommissionerSession | null = null;
    try {
      const channel = await this.#launcher.open(
        {
          leagueId: league.id,
          coworldId: commissioner.coworld.id,
          runnableId: commissioner.runnableId,
          purpose: "round",
          roundId,
        },
        this.#stop.signal,
      );
      session = new CommissionerSession(channel, this.#tap);
      const end = await runRound({
        db: this.#db,
        bus: this.#bus,
        session,
        league,
        round,
        commissioner,
        owner: this.#owner,
        timing: this.#timing,
        signal: this.#stop.signal,
      });
      if (end.kind === "aborted")
        await failRound(
          this.#db,
          this.#bus,
          roundId,
          `commissioner aborted: ${end.reason}`,
          await this.#logOf(session),
        );
    } catch (error) {
      const reason =
        error instanceof CommissionerFailure
          ? `commissioner ${error.kind}: ${error.message}`
          : `commissioner session failed: ${error instanceof Error ? error.message : String(error)}`;
      await failRound(
        this.#db,
        this.#bus,
        roundId,
        reason,
        session ? await this.#logOf(session) : "",
      );
    } finally {
      if (session) await bestEffort(session.close("round over"));
    }
  }

  /** The log for a failed round; while the server stops, only what arrives within a second. */
  async #logOf(session: CommissionerSession): Promise<string> {
    if (!this.#stop.signal.aborted) return logOf(session);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(""), 1_000)));
    try {
      return await Promise.race([logOf(session), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Aborts every live session (round_abort) and waits for them. */
  async stop(): Promise<void> {
    this.#stop.abort("the server is stopping");
    await Promise.allSettled([...this.#sessions.values()]);
  }

  /** Sessions this replica runs now (tests, status). */
  get liveSessions(): number {
    return this.#sessions.size;
  }
}

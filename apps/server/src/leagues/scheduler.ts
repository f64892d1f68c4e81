// The platform ladder's clock: per division, a round starts when the previous one has settled
// (or when `round_interval_minutes` says), and a round settles when its episodes are final.
// Everything is derived from the database on each tick, so a restarted server (or another
// replica) picks up where it left off; the conditional writes of round-start and round-settle
// make concurrent ticks on several replicas safe.
import type { Kysely } from "kysely";

import type { EventBus } from "../events/bus.ts";
import type { Database } from "../store/schema.ts";
import type { CommissionerDriver } from "./commissioner/driver.ts";
import { idleDivisions } from "./idle-divisions.ts";
import { noteQuiet } from "./quiet-divisions.ts";
import { settleableRounds, settleRound } from "./round-settle.ts";
import { startRound } from "./round-start.ts";
import { promoteSettled } from "./settled-promotion.ts";

export interface SchedulerOptions {
  /** Between ticks. Default 1000 ms; tests use a few tens. */
  tickMs?: number;
  onError?: (error: unknown) => void;
  /** Runs the leagues whose coworld's own commissioner makes their rounds. */
  commissioners?: CommissionerDriver;
}

export interface TickReport {
  settled: string[];
  started: string[];
  /** Divisions whose members a settled boundary's promotion moved (settled-promotion.ts). */
  moved: string[];
}

export class LeagueScheduler {
  readonly #db: Kysely<Database>;
  readonly #bus: Pick<EventBus, "publish">;
  readonly #tickMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #commissioners: CommissionerDriver | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<TickReport> | null = null;
  #again = false;
  #stopped = true;
  /** The quiet reason last noted per division, so an idle division costs no query per tick. */
  readonly #quiet = new Map<string, string>();

  constructor(
    db: Kysely<Database>,
    bus: Pick<EventBus, "publish">,
    options: SchedulerOptions = {},
  ) {
    this.#db = db;
    this.#bus = bus;
    this.#tickMs = options.tickMs ?? 1000;
    this.#onError = options.onError ?? (() => undefined);
    this.#commissioners = options.commissioners;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.wake();
  }

  /** Ticks as soon as possible (after the running tick, if any). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = this.tick()
      .catch((error: unknown) => {
        this.#onError(error);
        return { settled: [], started: [], moved: [] };
      })
      .finally(() => {
        this.#running = null;
        if (this.#stopped) return;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else {
          this.#timer = setTimeout(() => this.wake(), this.#tickMs);
        }
      });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    // Told first: a tick waiting on a commissioner's start (a runner's lease) ends at once.
    const commissioners = this.#commissioners?.stop();
    await this.#running;
    await commissioners;
  }

  /** One pass: settle what can settle, then start what is due. */
  async tick(now = new Date()): Promise<TickReport> {
    const report: TickReport = { settled: [], started: [], moved: [] };
    for (const roundId of await settleableRounds(this.#db)) {
      try {
        const outcome = await settleRound(this.#db, this.#bus, roundId);
        if (outcome.settled) report.settled.push(roundId);
      } catch (error) {
        this.#onError(error);
      }
    }
    const settledNow = new Set<string>();
    let newlySettled = false;
    const commissioned = (await this.#commissioners?.commissionedLeagueIds()) ?? new Set<string>();
    for (const divisionId of await this.#idleDivisions(commissioned)) {
      try {
        const outcome = await startRound(this.#db, this.#bus, divisionId, { now });
        if (outcome.kind === "started") {
          report.started.push(outcome.round.id);
          this.#quiet.delete(divisionId);
          continue;
        }
        if (outcome.reason === "settled") settledNow.add(divisionId);
        if (this.#quiet.get(divisionId) !== outcome.reason) {
          newlySettled ||= outcome.reason === "settled";
          await noteQuiet(this.#db, this.#bus, divisionId, outcome);
          this.#quiet.set(divisionId, outcome.reason);
        }
      } catch (error) {
        this.#onError(error);
      }
    }
    // A boundary is looked at when one of its divisions has just settled: a settled division
    // plays no round, so the promotion rule's round count would never come round.
    if (newlySettled) {
      try {
        report.moved = await promoteSettled(this.#db, this.#bus, settledNow);
        for (const id of report.moved) this.#quiet.delete(id);
      } catch (error) {
        this.#onError(error);
      }
    }
    await this.#commissioners?.tick();
    return report;
  }

  /** Open competition divisions of running leagues with no unsettled round, but those of `commissioned` leagues. */
  async #idleDivisions(commissioned: ReadonlySet<string>): Promise<string[]> {
    const rows = await idleDivisions(this.#db)
      .innerJoin("leagues as l", "l.id", "d.league_id")
      .select(["d.id", "d.league_id"])
      .where("d.type", "=", "competition")
      .where("l.rounds_paused_at", "is", null)
      .where("l.disabled_at", "is", null)
      .orderBy("d.id")
      .execute();
    return rows.filter((r) => !commissioned.has(r.league_id)).map((r) => r.id);
  }
}

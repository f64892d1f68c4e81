// Tournaments inside one server: when a wave's experience request ends (its `experience_request_*`
// event on the bus), the tournament that sent it advances; at start, running tournaments whose
// wave ended while no server listened catch up. Work in flight is awaited when it stops.
import type { Kysely } from "kysely";

import { endedExperienceRequests } from "../evaluations/experience-requests.ts";
import type { EventBus } from "../events/bus.ts";
import type { Database } from "../store/schema.ts";
import { advanceInTurn } from "./in-turn.ts";

export class TournamentPlay {
  readonly #db: Kysely<Database>;
  readonly #bus: EventBus;
  readonly #onError: (error: unknown, context: string) => void;
  readonly #pending = new Set<Promise<void>>();
  readonly #unsubscribe: () => void;

  constructor(
    db: Kysely<Database>,
    bus: EventBus,
    onError: (error: unknown, context: string) => void = () => undefined,
  ) {
    this.#db = db;
    this.#bus = bus;
    this.#onError = onError;
    this.#unsubscribe = bus.subscribe((rows) => {
      const ended = endedExperienceRequests(rows).map((r) => r.id);
      if (ended.length > 0) this.#track(this.#advanceWaves(ended), "tournament wave ended");
    });
  }

  #track(work: Promise<void>, context: string): void {
    const tracked = work.catch((error: unknown) => this.#onError(error, context));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  async #advanceWaves(requestIds: string[]): Promise<void> {
    const rows = await this.#db
      .selectFrom("tournament_matches")
      .select("tournament_id")
      .distinct()
      .where("experience_request_id", "in", requestIds)
      .execute();
    for (const row of rows) await advanceInTurn(this.#db, this.#bus, row.tournament_id);
  }

  /** Advances every running tournament once (a wave may have ended while no server listened). */
  sweep(): void {
    this.#track(
      (async () => {
        const rows = await this.#db
          .selectFrom("tournaments")
          .select("id")
          .where("status", "=", "running")
          .execute();
        for (const row of rows) await advanceInTurn(this.#db, this.#bus, row.id);
      })(),
      "tournament sweep",
    );
  }

  async stop(): Promise<void> {
    this.#unsubscribe();
    await Promise.allSettled([...this.#pending]);
  }
}

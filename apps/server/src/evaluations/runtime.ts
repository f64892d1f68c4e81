// Evaluations inside one server: when an episode of an experience request ends, the request
// may end too. Started with the server; its work in flight is awaited when it stops.
import type { Kysely } from "kysely";

import type { EventBus } from "../events/bus.ts";
import type { EpisodeSettledEvent } from "../events/episode-settled.ts";
import type { Database } from "../store/schema.ts";
import {
  experienceRequestOfEpisode,
  settleableExperienceRequests,
  settleExperienceRequest,
} from "./experience-requests.ts";

export class Evaluations {
  readonly #db: Kysely<Database>;
  readonly #bus: Pick<EventBus, "publish">;
  readonly #onError: (error: unknown, context: string) => void;
  readonly #pending = new Set<Promise<void>>();

  constructor(
    db: Kysely<Database>,
    bus: Pick<EventBus, "publish">,
    onError: (error: unknown, context: string) => void = () => undefined,
  ) {
    this.#db = db;
    this.#bus = bus;
    this.#onError = onError;
  }

  #track(work: Promise<void>, context: string): void {
    const tracked = work.catch((error: unknown) => this.#onError(error, context));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  /** The work queue's hook: an episode completed or failed. */
  onEpisodeSettled(event: EpisodeSettledEvent): void {
    this.#track(
      (async () => {
        const id = await experienceRequestOfEpisode(this.#db, event.episodeRequestId);
        if (id !== null) await settleExperienceRequest(this.#db, this.#bus, id);
      })(),
      "experience request settle",
    );
  }

  /** Ends requests whose last episode ended while no server was listening. */
  sweep(): void {
    this.#track(
      (async () => {
        for (const id of await settleableExperienceRequests(this.#db))
          await settleExperienceRequest(this.#db, this.#bus, id);
      })(),
      "experience request sweep",
    );
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }
}

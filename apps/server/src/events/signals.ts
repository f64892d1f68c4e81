// Signals between replicas that are not competition events (nothing is recorded in the event
// log): e.g. "these tokens were revoked, drop them from your caches". In one process a signal is
// a direct call; with Redis (redis-signals.ts) every replica of the deployment hears it.
export type SignalListener = (message: unknown) => void;

export interface SignalChannel {
  /**
   * Sends a JSON message to every replica's listeners (this one's included). Settles once the
   * message has been handed to every replica (for Redis: once it came back to this replica), or
   * after a bounded wait when the channel is down — a signal is best effort.
   */
  publish(message: unknown): Promise<void>;
  subscribe(listener: SignalListener): () => void;
  /** Settles once this replica hears signals (immediately in one process). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class LocalSignalChannel implements SignalChannel {
  readonly #listeners = new Set<SignalListener>();

  async publish(message: unknown): Promise<void> {
    for (const listener of this.#listeners) listener(message);
  }

  subscribe(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

// Signals between replicas that are not competition events (nothing is recorded in the event
// log): e.g. "these tokens were revoked, drop them from your caches". In one process a signal is
// a direct call; with Redis (redis-signals.ts) every replica of the deployment hears it.
export type SignalListener = (message: unknown) => void;

export interface SignalChannel {
  /**
   * Sends a JSON message to every replica's listeners (this one's included). Settles once the
   * message has been handed to every replica (for Redis: once it came back to this replica), or,
   * when the channel is down, once every replica that may have missed it has stopped trusting
   * what it would have changed (see trustEpoch).
   */
  publish(message: unknown): Promise<void>;
  subscribe(listener: SignalListener): () => void;
  /**
   * While this replica is sure to hear every signal: a number that changes whenever it may have
   * missed some (it reconnected), so a cache kept by signals is dropped when it changes.
   * Undefined while it may be missing signals (Redis down): trust no such cache then.
   */
  trustEpoch(now?: number): number | undefined;
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

  trustEpoch(): number {
    return 0;
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

// At most `permits` tasks at once; the rest wait in order, and past `maxWaiting` (if set) a task
// is refused at once (SemaphoreFull) instead of queueing without bound. Bounds password hashing
// and the boxes that read users' files (DuckDB child processes, archive workers).

export class SemaphoreFull extends Error {
  constructor() {
    super("too many tasks are waiting");
  }
}

export class Semaphore {
  readonly #permits: number;
  readonly #maxWaiting: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(permits: number, maxWaiting = Infinity) {
    this.#permits = permits;
    this.#maxWaiting = maxWaiting;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#permits) {
      if (this.#waiting.length >= this.#maxWaiting) throw new SemaphoreFull();
      // A finishing task hands its permit straight to the next waiter (#running stays counted).
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

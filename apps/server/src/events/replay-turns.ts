// Replays take turns: at most `size` units of replay work of this replica (a page read and
// rendered, or a slice of it written) run at once, and at most `size` start in one turn of the
// event loop; the rest wait in line, first come first served. Between turns the loop accepts
// connections and answers every other request: libuv accepts one connection a turn, so a turn
// held for long (twenty readers writing their replays back to back, each as its socket drained)
// left /healthz's connection seconds in the accept queue behind the flood's own.
export class ReplayTurns {
  readonly #size: number;
  #running = 0;
  /** Units started in this turn of the event loop. */
  #startedThisTurn = 0;
  #nextTurnScheduled = false;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Runs `unit` in its turn. */
  async run<T>(unit: () => Promise<T>): Promise<T> {
    if (this.#waiting.length === 0 && this.#mayStart()) this.#start();
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await unit();
    } finally {
      this.#running -= 1;
      this.#wake();
    }
  }

  #mayStart(): boolean {
    return this.#running < this.#size && this.#startedThisTurn < this.#size;
  }

  #start(): void {
    this.#running += 1;
    this.#startedThisTurn += 1;
    if (this.#nextTurnScheduled) return;
    this.#nextTurnScheduled = true;
    setImmediate(() => {
      this.#nextTurnScheduled = false;
      this.#startedThisTurn = 0;
      this.#wake();
    });
  }

  /** Starts waiting units while this turn has room (their counts taken before they resume). */
  #wake(): void {
    while (this.#waiting.length > 0 && this.#mayStart()) {
      this.#start();
      this.#waiting.shift()?.();
    }
  }
}

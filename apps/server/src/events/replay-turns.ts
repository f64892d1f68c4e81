// Replays take turns: at most `size` replay pages of this replica are read and rendered at once,
// the rest wait in line. A hundred sockets resuming from seq 0 then cost the server what a few
// do, a page at a time, and every other request (the probes too) runs between the pages.
export class ReplayTurns {
  readonly #size: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /** Runs `page` in its turn; the next waiting page starts once it settles. */
  async run<T>(page: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#size)
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      return await page();
    } finally {
      const next = this.#waiting.shift();
      // The turn passes straight on (the count stays), or is given back.
      if (next) setImmediate(next);
      else this.#running -= 1;
    }
  }
}

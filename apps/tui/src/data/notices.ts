// The status line's source: errors, rate limits and surprises are reported here instead of
// being thrown, so the screen never shows a stack trace. The latest notice is shown.
export type NoticeLevel = "info" | "warn" | "error";

export interface Notice {
  readonly level: NoticeLevel;
  readonly text: string;
  readonly at: number;
}

type Listener = () => void;

export class Notices {
  #latest: Notice | null = null;
  readonly #listeners = new Set<Listener>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  get latest(): Notice | null {
    return this.#latest;
  }

  report(level: NoticeLevel, text: string): void {
    const line = text.replace(/\s+/g, " ").trim();
    if (this.#latest?.text === line && this.#latest.level === level) return;
    this.#latest = { level, text: line, at: this.#now() };
    for (const listener of this.#listeners) listener();
  }

  /** Clears the notice if it is still `notice` (a later one stays). */
  clear(notice: Notice | null = this.#latest): void {
    if (notice === null || this.#latest !== notice) return;
    this.#latest = null;
    for (const listener of this.#listeners) listener();
  }

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): Notice | null => this.#latest;
}

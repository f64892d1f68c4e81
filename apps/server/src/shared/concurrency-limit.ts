// At most `max` tasks at once; the rest wait their turn in order. Bounds the boxes that read
// users' files (DuckDB child processes, archive workers): each may take a core and a gigabyte,
// and a burst of uploads must not start one each.
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function concurrencyLimit(max: number): ConcurrencyLimit {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    active -= 1;
    const next = queue.shift();
    if (next) {
      active += 1;
      next();
    }
  };
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < max) active += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

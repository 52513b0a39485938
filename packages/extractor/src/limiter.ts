/** Runs at most `concurrency` tasks at once; the rest wait in arrival (FIFO) order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly queued: number;
}

export function createLimiter(concurrency: number): Limiter {
  const waiting: Array<() => void> = [];
  let active = 0;
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < concurrency) active++;
      // A released slot passes straight to the next waiter, so `active` stays counted.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

import type { Trigger } from './types.js';

/** When a project's watcher fires next, and why (epoch ms). */
export interface NextFire {
  at: number;
  trigger: Trigger;
}

/**
 * The watchers' timers: at most one per project. A timer that fires is gone before
 * `fire` runs, so `next` then says nothing until it is armed again.
 */
export interface Scheduler {
  /** Fires `trigger` for the project after `delayMs` (at once when ≤ 0), replacing its timer. */
  arm(namespace: string, delayMs: number, trigger: Trigger): void;
  /** Cancels the project's timer, if any. */
  cancel(namespace: string): void;
  /** When and why the project's timer fires, while one is armed. */
  next(namespace: string): NextFire | undefined;
  /** Cancels every timer; `arm` does nothing from then on. */
  close(): void;
}

export function createScheduler(options: {
  /** Clock in epoch ms. */
  now: () => number;
  /** Called when a project's timer fires. */
  fire: (namespace: string, trigger: Trigger) => void;
}): Scheduler {
  const timers = new Map<string, { timer: NodeJS.Timeout; next: NextFire }>();
  let closed = false;

  const cancel = (namespace: string) => {
    clearTimeout(timers.get(namespace)?.timer);
    timers.delete(namespace);
  };

  return {
    arm(namespace, delayMs, trigger) {
      cancel(namespace);
      if (closed) return;
      const delay = Math.max(0, delayMs);
      const timer = setTimeout(() => {
        timers.delete(namespace);
        options.fire(namespace, trigger);
      }, delay);
      // The collector's server keeps the process alive; a watcher alone must not.
      timer.unref();
      timers.set(namespace, { timer, next: { at: options.now() + delay, trigger } });
    },
    cancel,
    next(namespace) {
      return timers.get(namespace)?.next;
    },
    close() {
      closed = true;
      for (const namespace of [...timers.keys()]) cancel(namespace);
    },
  };
}

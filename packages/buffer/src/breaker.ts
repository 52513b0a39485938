/** `closed`: extractions run. `open`: they wait out the back-off. `half-open`: the next one is a trial. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** A project's breaker, as status() shows it. */
export interface BreakerSnapshot {
  state: BreakerState;
  /** Failed extractions in a row. */
  consecutiveFailures: number;
  /** When an open breaker lets a trial through (ISO), while open. */
  openUntil?: string;
  /** The current back-off (of the last opening, or the first when closed), in ms. */
  backoffMs: number;
}

export interface BreakerOptions {
  /** Failures in a row that open the breaker. */
  failures: number;
  /** First back-off, in ms. */
  backoffMs: number;
  /** Back-off cap, in ms. */
  maxBackoffMs: number;
}

/**
 * A circuit breaker that never stays off: after `failures` in a row it opens for the
 * back-off, then lets one trial through; a failed trial reopens it with the back-off
 * doubled (capped), a success closes it and resets everything.
 */
export interface Breaker {
  state(now: number): BreakerState;
  /** Epoch ms when an open breaker half-opens (undefined unless open). */
  openUntil(): number | undefined;
  /** Records a failure; returns true when this one opened the breaker. */
  failure(now: number): boolean;
  success(): void;
  snapshot(now: number): BreakerSnapshot;
}

export function createBreaker(options: BreakerOptions): Breaker {
  let failures = 0;
  let backoff = options.backoffMs;
  let openUntil: number | undefined;
  const state = (now: number): BreakerState =>
    openUntil === undefined ? 'closed' : now < openUntil ? 'open' : 'half-open';
  return {
    state,
    openUntil: () => openUntil,
    failure(now) {
      failures++;
      if (failures < options.failures) return false;
      // Reaching the limit opens; a failed trial (limit already passed) reopens, doubled.
      if (failures > options.failures) backoff = Math.min(backoff * 2, options.maxBackoffMs);
      openUntil = now + backoff;
      return true;
    },
    success() {
      failures = 0;
      backoff = options.backoffMs;
      openUntil = undefined;
    },
    snapshot(now) {
      const current = state(now);
      return {
        state: current,
        consecutiveFailures: failures,
        ...(current === 'open' && openUntil !== undefined
          ? { openUntil: new Date(openUntil).toISOString() }
          : {}),
        backoffMs: backoff,
      };
    },
  };
}

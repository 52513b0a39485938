/**
 * Rate limits of a team server: per address on failed authentication (a token guessed
 * wrong), per member on requests. Member tokens are long enough that guessing one is
 * hopeless; this is defence in depth, and it keeps one runaway member from starving the
 * rest. Token buckets, in memory, bounded in size.
 */

/** Limits; 0 turns one off. */
export interface RateLimitOptions {
  /**
   * Requests with a token that is no one's one address may send per minute (and at once)
   * before it must wait: the next one is answered 429 without the token being checked.
   */
  failedAuthPerMinute: number;
  /** Requests one member's token may make per second, sustained. */
  memberPerSecond: number;
  /** Requests one member's token may make at once above that rate. */
  memberBurst: number;
  /** Most addresses and members tracked at once (default 10,000); idle ones go first. */
  maxTracked?: number;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/** What a limited request must wait, in whole seconds (`Retry-After`); 0: it may go on. */
export type WaitSeconds = number;

export interface RateLimiter {
  /** Before a request's token is checked: how long its address must wait (0: go on). */
  addressWait(address: string): WaitSeconds;
  /** A request from `address` carried a token that is no one's. */
  failedAuth(address: string): void;
  /** A member's request: counted, or how long the member must wait (nothing counted). */
  memberWait(member: string): WaitSeconds;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

/** A set of token buckets of one rate and size, keyed by address or member. */
class Buckets {
  readonly #map = new Map<string, Bucket>();
  readonly perSecond: number;
  readonly size: number;
  readonly maxTracked: number;

  constructor(perSecond: number, size: number, maxTracked: number) {
    this.perSecond = perSecond;
    this.size = size;
    this.maxTracked = maxTracked;
  }

  /** The bucket of `key` refilled to `now` (a new one is full). */
  #get(key: string, now: number): Bucket {
    let bucket = this.#map.get(key);
    if (!bucket) {
      if (this.#map.size >= this.maxTracked) this.#evict(now);
      bucket = { tokens: this.size, at: now };
      this.#map.set(key, bucket);
      return bucket;
    }
    bucket.tokens = Math.min(
      this.size,
      bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
    );
    bucket.at = now;
    return bucket;
  }

  /** Seconds until `key` has a whole token again (0: it has one). */
  wait(key: string, now: number): WaitSeconds {
    const bucket = this.#map.get(key);
    if (!bucket) return 0;
    const tokens = Math.min(this.size, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }

  /** Takes a token from `key`: 0, or the seconds to wait when it has none (none taken). */
  take(key: string, now: number): WaitSeconds {
    const bucket = this.#get(key, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  /** Drops the buckets that are full again, else the oldest half: the map stays bounded. */
  #evict(now: number): void {
    for (const [key, bucket] of this.#map) {
      const tokens = bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond;
      if (tokens >= this.size) this.#map.delete(key);
    }
    if (this.#map.size < this.maxTracked) return;
    let drop = Math.ceil(this.#map.size / 2);
    for (const key of this.#map.keys()) {
      if (drop-- <= 0) break;
      this.#map.delete(key);
    }
  }
}

/** The team server's rate limiter (see RateLimitOptions). */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const max = options.maxTracked ?? 10_000;
  const failures =
    options.failedAuthPerMinute > 0
      ? new Buckets(options.failedAuthPerMinute / 60, options.failedAuthPerMinute, max)
      : undefined;
  const members =
    options.memberPerSecond > 0
      ? new Buckets(options.memberPerSecond, Math.max(1, options.memberBurst), max)
      : undefined;
  return {
    addressWait: (address) => failures?.wait(address, now()) ?? 0,
    failedAuth(address) {
      failures?.take(address, now());
    },
    memberWait: (member) => members?.take(member, now()) ?? 0,
  };
}

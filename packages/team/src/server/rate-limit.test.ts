import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.js';

function clock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** A limiter on a hand-advanced clock; each limit is off (0) unless `limits` sets it. */
function limiterWith(limits: Partial<Parameters<typeof createRateLimiter>[0]>) {
  const time = clock();
  const limiter = createRateLimiter({
    failedAuthPerMinute: 0,
    memberPerSecond: 0,
    memberBurst: 0,
    ...limits,
    now: time.now,
  });
  return { time, limits: limiter };
}

describe('createRateLimiter', () => {
  it('lets an address fail its allowance at once, then one failure per interval', () => {
    const { time, limits } = limiterWith({ failedAuthPerMinute: 6 });
    for (let i = 0; i < 6; i++) {
      expect(limits.addressWait('10.0.0.1')).toBe(0);
      limits.failedAuth('10.0.0.1');
    }
    // Six a minute: the next one is 10 s away.
    expect(limits.addressWait('10.0.0.1')).toBe(10);
    expect(limits.addressWait('10.0.0.2')).toBe(0);
    time.advance(9_000);
    expect(limits.addressWait('10.0.0.1')).toBe(1);
    time.advance(1_000);
    expect(limits.addressWait('10.0.0.1')).toBe(0);
    limits.failedAuth('10.0.0.1');
    expect(limits.addressWait('10.0.0.1')).toBe(10);
  });

  it("limits each member's requests to a burst, then a steady rate, with the wait to say", () => {
    const { time, limits } = limiterWith({ memberPerSecond: 2, memberBurst: 5 });
    for (let i = 0; i < 5; i++) expect(limits.memberWait('alice')).toBe(0);
    expect(limits.memberWait('alice')).toBe(1);
    expect(limits.memberWait('bob')).toBe(0);
    time.advance(500);
    expect(limits.memberWait('alice')).toBe(0);
    expect(limits.memberWait('alice')).toBe(1);
    // Off: never limited.
    expect(limits.addressWait('10.0.0.1')).toBe(0);
    limits.failedAuth('10.0.0.1');
    expect(limits.addressWait('10.0.0.1')).toBe(0);
  });

  it('tracks a bounded number of keys, dropping idle ones first', () => {
    const { limits } = limiterWith({ failedAuthPerMinute: 1, maxTracked: 100 });
    limits.failedAuth('attacker');
    for (let i = 0; i < 10_000; i++) limits.failedAuth(`spoofed-${i}`);
    // Memory stays bounded however many addresses fail: the oldest went, and starts afresh;
    // the newest are still held back.
    expect(limits.addressWait('attacker')).toBe(0);
    expect(limits.addressWait('spoofed-9999')).toBeGreaterThan(0);
  });
});

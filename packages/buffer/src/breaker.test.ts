import { describe, expect, it } from 'vitest';
import { createBreaker } from './breaker.js';

describe('circuit breaker', () => {
  it('opens after N failures in a row, half-opens after the back-off, doubles it per failed trial up to the cap', () => {
    const breaker = createBreaker({ failures: 3, backoffMs: 60_000, maxBackoffMs: 150_000 });
    let t = 0;
    expect(breaker.failure(t)).toBe(false);
    expect(breaker.failure(t)).toBe(false);
    expect(breaker.state(t)).toBe('closed');
    expect(breaker.failure(t)).toBe(true);
    expect(breaker.snapshot(t)).toEqual({
      state: 'open',
      consecutiveFailures: 3,
      openUntil: new Date(60_000).toISOString(),
      backoffMs: 60_000,
    });
    t = 60_000;
    expect(breaker.state(t)).toBe('half-open');
    breaker.failure(t);
    expect([breaker.state(t), breaker.openUntil()]).toEqual(['open', 180_000]);
    t = 180_000;
    breaker.failure(t);
    expect(breaker.snapshot(t).backoffMs).toBe(150_000);
    t = 330_000;
    expect(breaker.state(t)).toBe('half-open');
    breaker.success();
    expect(breaker.snapshot(t)).toEqual({
      state: 'closed',
      consecutiveFailures: 0,
      backoffMs: 60_000,
    });
  });

  it('forgets failures after a success', () => {
    const breaker = createBreaker({ failures: 3, backoffMs: 10, maxBackoffMs: 100 });
    breaker.failure(0);
    breaker.failure(0);
    breaker.success();
    breaker.failure(0);
    expect(breaker.state(0)).toBe('closed');
  });
});

import { describe, expect, it } from 'vitest';
import { latencyBuckets, percentile } from './latency.js';

describe('percentile', () => {
  it('takes the nearest rank, so p95 of a few samples is a real sample, not an average', () => {
    expect(percentile([1, 2, 3, 4, 100], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 100], 95)).toBe(100);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('latencyBuckets', () => {
  it('slices the window, leaves quiet slices empty and drops samples outside it', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const min = 60_000;
    const buckets = latencyBuckets(
      [
        { at: now - 70 * min, ms: 999 },
        { at: now - 59 * min, ms: 10 },
        { at: now - 58 * min, ms: 30 },
        { at: now - 1 * min, ms: 5 },
        { at: now, ms: 7 },
      ],
      now,
      60 * min,
      12,
    );
    expect(buckets).toHaveLength(12);
    expect(buckets[0]).toEqual({ start: '2026-11-22T11:00:00.000Z', count: 2, p50: 10, p95: 30 });
    expect(buckets[5]).toMatchObject({ count: 0, p50: null, p95: null });
    expect(buckets[11]).toMatchObject({ count: 2, p50: 5, p95: 7 });
  });
});

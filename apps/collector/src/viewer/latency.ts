/** One slice of the latency chart. */
export interface LatencyBucket {
  /** ISO time the slice starts. */
  start: string;
  count: number;
  /** Milliseconds; null when the slice had no retrievals. */
  p50: number | null;
  p95: number | null;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/**
 * Splits the window ending at `now` into equal slices and gives each its p50 and p95, so
 * the chart shows when retrieval got slow, not just that it did.
 */
export function latencyBuckets(
  samples: ReadonlyArray<{ at: number; ms: number }>,
  now: number,
  windowMs: number,
  slices: number,
): LatencyBucket[] {
  const width = windowMs / slices;
  const start = now - windowMs;
  const groups: number[][] = Array.from({ length: slices }, () => []);
  for (const { at, ms } of samples) {
    if (at < start || at > now) continue;
    groups[Math.min(slices - 1, Math.floor((at - start) / width))]!.push(ms);
  }
  return groups.map((values, i) => {
    values.sort((a, b) => a - b);
    return {
      start: new Date(start + i * width).toISOString(),
      count: values.length,
      p50: percentile(values, 50),
      p95: percentile(values, 95),
    };
  });
}

// The viewer's heavy screens as read models: they read and reduce in one place. The daemon
// runs them in its storage reader's worker thread (openSqliteReader's `models`), so the
// rows they read (up to 200 events of up to 1 MiB, an hour of retrievals) never cross to
// the event loop: only the summaries and the chart do. Elsewhere they run in-process.
import type { StorageReads } from '@kiro-learn/storage';
import { type LatencyBucket, latencyBuckets } from './latency.js';
import { type EventSummary, summarizeEvent } from './summary.js';

const HOUR_MS = 60 * 60 * 1000;
/** Retrievals read for the latency chart; beyond this many an hour the chart shows the newest. */
const LATENCY_SAMPLES = 20_000;

/** The activity screen: the newest events (summarized), extractions and retrievals. */
export async function activity(reads: StorageReads, limit: number) {
  const [events, extractions, retrievals] = await Promise.all([
    reads.listEvents({ limit }),
    reads.listExtractions({ limit }),
    reads.listRetrievals({ limit }),
  ]);
  return { events: events.items.map(summarizeEvent) as EventSummary[], extractions, retrievals };
}

/** The health screen's storage part: size, totals, and the last hour's retrieval latency. */
export async function health(
  reads: StorageReads,
  at: number,
): Promise<{
  db_bytes: number;
  events: number;
  memories: number;
  projects: number;
  latency: LatencyBucket[];
}> {
  const [sizeBytes, stats, retrievals] = await Promise.all([
    reads.sizeBytes(),
    reads.stats(),
    // Only the hour the chart shows: an index range, however long the log.
    reads.listRetrievals({
      limit: LATENCY_SAMPLES,
      since: new Date(at - HOUR_MS).toISOString(),
    }),
  ]);
  const samples = retrievals.map((r) => ({ at: Date.parse(r.createdAt), ms: r.latencyMs }));
  return {
    db_bytes: sizeBytes,
    events: stats.events.total,
    memories: stats.memories.total,
    projects: stats.projects.length,
    latency: latencyBuckets(samples, at, HOUR_MS, 12),
  };
}

/** The read models by name, as a reader runs them (`reader.model(name, …args)`). */
export interface ViewerModels {
  activity(limit: number): ReturnType<typeof activity>;
  health(at: number): ReturnType<typeof health>;
}

/** The models run in this process, over these reads (PostgreSQL, tests). */
export function localModels(reads: StorageReads): ViewerModels {
  return {
    activity: (limit) => activity(reads, limit),
    health: (at) => health(reads, at),
  };
}

/** The models run by a storage reader opened with `models: VIEWER_MODELS_URL`. */
export function readerModels(reader: {
  model<T>(name: string, ...args: unknown[]): Promise<T>;
}): ViewerModels {
  return {
    activity: (limit) => reader.model('activity', limit),
    health: (at) => reader.model('health', at),
  };
}

/**
 * This module, compiled: what a reader's worker imports. Under the TypeScript sources
 * (tests) it is still the built one in dist/, as Node cannot resolve the sources' imports.
 */
export const VIEWER_MODELS_URL: URL = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/viewer/models.js', import.meta.url)
  : new URL(import.meta.url);

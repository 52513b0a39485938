import type { Event } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';

/** The events one extraction gets, and the pending entries its success removes. */
export interface Batch {
  namespace: string;
  /** The events, oldest first. */
  events: Event[];
  /** Pending entries covered: every event above, plus entries whose event no longer exists. */
  eventIds: string[];
  /** Pending bytes covered. */
  bytes: number;
  /** True when more entries were pending than fit. */
  more: boolean;
}

/** Size caps of one batch. */
export interface BatchLimits {
  /** Most bytes (at least one event is always taken, whatever its size). */
  maxBytes: number;
  /** Most events. */
  maxEvents: number;
}

/**
 * Takes a project's oldest pending entries up to the limits and loads their events.
 * Kept apart so compaction can grow its own batches on top of it.
 */
export async function buildBatch(
  storage: StorageBackend,
  namespace: string,
  limits: BatchLimits,
): Promise<Batch> {
  const entries = await storage.listPending(namespace, { limit: limits.maxEvents + 1 });
  const taken: typeof entries = [];
  let bytes = 0;
  for (const entry of entries) {
    if (taken.length >= limits.maxEvents) break;
    if (taken.length > 0 && bytes + entry.bytes > limits.maxBytes) break;
    taken.push(entry);
    bytes += entry.bytes;
  }
  const eventIds = taken.map((entry) => entry.eventId);
  return {
    namespace,
    events: await storage.getEvents(eventIds),
    eventIds,
    bytes,
    more: taken.length < entries.length,
  };
}

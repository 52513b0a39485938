import type { MemoryRecord } from '@kiro-learn/schema';

/**
 * The pending buffer: per namespace, the events waiting for extraction, in arrival order.
 * An event enters it with `putEvent(…, { pending: true })` in the same transaction as the
 * event itself, and leaves it with the records extracted from it (commitExtraction).
 */
export interface BufferStore {
  /** Pending entries of one namespace, oldest first (at most `limit`). */
  listPending(namespace: string, options?: { limit?: number }): Promise<PendingEntry[]>;
  /** Count and bytes pending per namespace (for re-arming watchers at start-up). */
  pendingSummary(): Promise<PendingSummary[]>;
  /** Removes exactly these entries (events appended meanwhile stay). Returns how many. */
  removePending(namespace: string, eventIds: readonly string[]): Promise<number>;
  /**
   * Stores records and removes the pending entries they came from in one transaction, so
   * a crash can neither lose the events nor store the records twice. Conditional: when any
   * of `eventIds` is no longer pending (another run or process committed it), nothing is
   * stored and it rejects with StorageError `stale_batch`.
   */
  commitExtraction(commit: ExtractionCommit): Promise<void>;
  /**
   * Sets pending entries aside (a project past its pending ceiling): they leave the
   * buffer but keep their order, until requeueParked puts them back. Returns how many.
   * Optional (with requeueParked and parkedSummary): a backend without them has the
   * buffer drop such entries from the buffer instead (the events stay stored).
   */
  parkPending?(namespace: string, eventIds: readonly string[]): Promise<number>;
  /**
   * Moves a namespace's oldest parked entries back into its pending buffer while its
   * pending bytes stay within `maxPendingBytes` (at least one entry into an empty buffer).
   * Returns how many moved.
   */
  requeueParked?(namespace: string, maxPendingBytes: number): Promise<number>;
  /** Count and bytes parked per namespace (for re-queueing at start-up). */
  parkedSummary?(): Promise<Array<{ namespace: string; count: number; bytes: number }>>;
}

export interface PendingEntry {
  /** The project the event belongs to (exact namespace). */
  namespace: string;
  /** The pending event. */
  eventId: string;
  /** The event's size as stored, in bytes (what the buffer's triggers count). */
  bytes: number;
  /** ISO time the event was appended. */
  appendedAt: string;
}

export interface PendingSummary {
  /** The project (exact namespace). */
  namespace: string;
  /** Entries pending. */
  count: number;
  /** Their bytes. */
  bytes: number;
  /** ISO time the oldest was appended. */
  oldestAt: string;
  /** ISO time the newest was appended. */
  newestAt: string;
}

export interface ExtractionCommit {
  /** The project whose pending entries the extraction took. */
  namespace: string;
  /** The records extracted (stored, or replaced by id). */
  records: readonly MemoryRecord[];
  /** Pending entries to remove: exactly the events the extraction saw. */
  eventIds: readonly string[];
}

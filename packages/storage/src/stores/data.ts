import type { MemoryRecord } from '@kiro-learn/schema';

/** The user's data as a whole: forget without trace, export, retention, backup. */
export interface DataStore {
  /** What `forget(scope)` would delete, counted; nothing changes. */
  countForget(scope: ForgetScope): Promise<ForgetCounts>;
  /**
   * Deletes everything in `scope`: events, the records derived from them (with their
   * search rows and vectors), pending entries and log lines. Leaves no trace of the
   * deleted text in the database's files (on SQLite: zeroed pages, FTS entries removed,
   * the WAL truncated). Returns what went.
   */
  forget(scope: ForgetScope): Promise<ForgetCounts>;
  /** Stored events in arrival order, as their exact JSON text, paged (export). */
  scanEvents(query: ScanQuery): Promise<ScanPage<StoredEvent>>;
  /** Records in a stable order, paged (export). */
  scanRecords(query: ScanQuery): Promise<ScanPage<MemoryRecord>>;
  /**
   * Retention: deletes (or with `dryRun` only counts) the events of `policy`, oldest
   * first, like `forget` (no trace). Memory records are kept.
   */
  pruneEvents(policy: PrunePolicy): Promise<ForgetCounts>;
  /**
   * A consistent copy of the whole database at `path` (a file that opens as a database
   * on its own), taken while reads and writes go on. Throws StorageError `unsupported`
   * where the backend has no file to copy (a server database: use its own tools).
   * `signal` abandons a copy under way (a shutdown): it rejects at the next step, with no
   * file left at `path`.
   */
  backup(path: string, options?: { signal?: AbortSignal }): Promise<{ bytes: number }>;
}

/**
 * What `forget` deletes. `before` is an ISO time compared with when events arrived and
 * records were created; `namespace` narrows `session` and `before` to one project.
 */
export type ForgetScope =
  | { record: string }
  | { event: string }
  | { session: string; namespace?: string }
  | { namespace: string }
  | { before: string; namespace?: string }
  | { all: true };

/** How much a forget or prune deleted (or would delete). */
export interface ForgetCounts {
  events: number;
  records: number;
  pending: number;
  /** Retrieval and extraction log lines. */
  logs: number;
}

export interface ScanQuery {
  /** Exact namespace; omitted scans every namespace. */
  namespace?: string;
  /** Opaque cursor from the previous page. */
  cursor?: string;
  /** Most items on the page. */
  limit: number;
}

export interface ScanPage<T> {
  /** In a stable order (events: arrival). */
  items: T[];
  /** Present while more items follow. */
  nextCursor?: string;
}

/** An event as stored: its JSON text byte for byte, and when it arrived. */
export interface StoredEvent {
  json: string;
  receivedAt: string;
}

/** Which events retention drops: older than `olderThan`, then the oldest beyond `maxBytes`. */
export interface PrunePolicy {
  /** One project's events; omitted: every project's. */
  namespace?: string;
  /** Events that arrived before this ISO time go. */
  olderThan?: string;
  /**
   * Size cap in bytes: with `namespace`, the project's stored event text; without, the
   * database's used size. The oldest events go until it fits.
   */
  maxBytes?: number;
  /** Count only; delete nothing. */
  dryRun?: boolean;
}

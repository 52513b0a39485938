import type { MemoryRecord } from '@kiro-learn/schema';

/** The user's data as a whole: forget without trace, export, retention, backup. */
export interface DataStore {
  /** What `forget(scope)` would delete, counted; nothing changes. */
  countForget(scope: ForgetScope): Promise<ForgetCounts>;
  /**
   * Deletes everything in `scope`: events, the records derived from them (with their
   * search rows and vectors), pending entries and log lines. Returns what went. Atomic
   * with extraction: an extraction of the scope's events committing meanwhile either
   * fails (`stale_batch`) or has its records deleted too.
   *
   * No trace of the deleted text stays in the database's files on SQLite (zeroed pages,
   * FTS entries removed, the WAL truncated). On PostgreSQL the rows are gone for every
   * query at once, but their bytes stay in the table files' free space until reused;
   * `compact` then rewrites the tables the scope touched (`VACUUM FULL`, which locks each
   * table while it runs), so the text leaves them. PostgreSQL's WAL keeps it until the
   * server recycles the segment.
   */
  forget(scope: ForgetScope, options?: ForgetOptions): Promise<ForgetResult>;
  /**
   * The namespaces holding an event captured in one of these project directories (the
   * events' `source.project_path`, compared exactly), sorted. A project's id changes when
   * its repository gains a remote: its earlier namespaces still name its directory.
   */
  projectNamespaces(directories: readonly string[]): Promise<string[]>;
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
   * file left at `path`. The copy is written to a temporary file beside `path`, then moved
   * into place, so `path` never holds half a copy. An existing `path` is refused
   * (StorageError `conflict`, nothing written) unless `overwrite`; so is the database's
   * own file.
   */
  backup(path: string, options?: BackupOptions): Promise<{ bytes: number }>;
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

export interface BackupOptions {
  /** Abandons a copy under way (a shutdown). */
  signal?: AbortSignal;
  /** Replace a file already at the path (default: refuse, StorageError `conflict`). */
  overwrite?: boolean;
}

export interface ForgetOptions {
  /**
   * PostgreSQL: rewrite the tables the forget touched (`VACUUM FULL`) so the deleted text
   * leaves their files now. SQLite leaves no trace without it.
   */
  compact?: boolean;
  /**
   * PostgreSQL with `compact`: how long the rewrite waits for transactions older than the
   * delete to end, in ms (default 30 000). Those still see the deleted rows, and a rewrite
   * while one runs copies the rows, text and all, into the new files.
   */
  compactWaitMs?: number;
}

/** What a forget deleted, and (PostgreSQL, `compact`) whether its text left the files. */
export interface ForgetResult extends ForgetCounts {
  /**
   * PostgreSQL with `compact` only: `false` when a transaction older than the delete was
   * still running after `compactWaitMs`, so the rewrite may have kept the deleted rows'
   * bytes in the table files; a compacting forget run after that transaction ended takes
   * them. `true` when the tables were rewritten with no such transaction left.
   */
  compacted?: boolean;
}

/** How much a forget or prune deleted (or would delete). */
export interface ForgetCounts {
  /** Stored events. */
  events: number;
  /** Memory records (copies of teammates' records included). */
  records: number;
  /** Pending-buffer entries, parked ones included. */
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
  /** The event as stored, byte for byte. */
  json: string;
  /** ISO time it arrived (an import keeps the exported time). */
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

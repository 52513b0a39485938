import type { StorageBackend } from './backend.js';

/**
 * The reads behind lists, totals and logs (the viewer, `/v1/stats`, `/metrics`): what a
 * collector may serve from a connection other than its writer's. Every StorageBackend is
 * one; openSqliteReader gives SQLite's from a worker thread, so a slow read (a cold cache,
 * a scan) never holds up ingest on the event loop.
 */
export type StorageReads = Pick<StorageBackend, (typeof READ_METHODS)[number]>;

/**
 * A read model: a function of its own over StorageReads (a viewer screen: read, then
 * reduce to what the screen shows). Run by a reader where the reads happen, so only its
 * small result comes back, not every row it read.
 */
export type ReadModel = (reads: StorageReads, ...args: never[]) => Promise<unknown>;

/** StorageReads that must be closed (openSqliteReader). */
export interface StorageReader extends StorageReads {
  /**
   * Runs the read model exported as `name` by the reader's `models` module, with these
   * arguments (structured-clonable), and resolves with its result.
   */
  model<T>(name: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** The methods of StorageReads: reads only, each answered from one snapshot. */
export const READ_METHODS = [
  'getEvent',
  'getEventJson',
  'getEvents',
  'listEvents',
  'getRecord',
  'getRecords',
  'listRecords',
  'listSuperseded',
  'listPending',
  'pendingSummary',
  'listRetrievals',
  'listExtractions',
  'stats',
  'sizeBytes',
  'teamRecordInfo',
  'scanEvents',
  'scanRecords',
] as const satisfies ReadonlyArray<keyof StorageBackend>;

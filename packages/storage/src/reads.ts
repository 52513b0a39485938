import type { StorageBackend } from './backend.js';

/**
 * The reads behind lists, totals and logs (the viewer, `/v1/stats`, `/metrics`): what a
 * collector may serve from a connection other than its writer's. Every StorageBackend is
 * one; openSqliteReader gives SQLite's from a worker thread, so a slow read (a cold cache,
 * a scan) never holds up ingest on the event loop.
 */
export type StorageReads = Pick<StorageBackend, (typeof READ_METHODS)[number]>;

/** StorageReads that must be closed (openSqliteReader). */
export interface StorageReader extends StorageReads {
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

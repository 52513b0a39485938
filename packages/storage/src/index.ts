/**
 * @kiro-learn/storage: where kiro-learn keeps events, memory records, the pending buffer
 * and its logs.
 *
 * `StorageBackend` is the interface every other package talks to; `openSqliteStorage`
 * opens the SQLite implementation (kysely + better-sqlite3, FTS5 search, forward-only
 * migrations). `tokenize` is the prompt tokenizer its search uses.
 *
 * Everything exported here is public API.
 */

export type {
  ColumnWeights,
  EventPage,
  ExtractionCommit,
  ExtractionLogEntry,
  ExtractionLogInput,
  ForgetCounts,
  ForgetScope,
  ListEventsOptions,
  ListRecordsOptions,
  LogQuery,
  Member,
  NewMember,
  PendingEntry,
  PendingSummary,
  PrunePolicy,
  PutEventOptions,
  PutEventResult,
  RecordPage,
  RetrievalLogEntry,
  RetrievalLogInput,
  ScanPage,
  ScanQuery,
  SearchHit,
  SearchOptions,
  StorageBackend,
  StorageStats,
  StoredEvent,
  StoredEventNotice,
} from './backend.js';
export { StorageError, type StorageErrorCode } from './errors.js';
export { STOP_WORDS, tokenize } from './query/tokenize.js';
export { DEFAULT_COLUMN_WEIGHTS } from './query/weights.js';
// Checking a database file for damage (`kiro-learn doctor`).
export {
  CORRUPT_DATABASE_HELP,
  checkDatabase,
  type IntegrityReport,
} from './sqlite/integrity.js';
// An exclusive, crash-safe file lock (the collector's data-dir lock).
export { type FileLock, isFileLocked, lockFile } from './sqlite/lock.js';
export {
  openSqliteStorage,
  type SqliteStorage,
  type SqliteStorageOptions,
} from './sqlite/open.js';

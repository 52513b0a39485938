/**
 * @kiro-learn/storage: where kiro-learn keeps events, memory records, the pending buffer
 * and its logs.
 *
 * `StorageBackend` is the interface every other package talks to (one narrow interface per
 * aggregate, composed: `EventStore`, `RecordStore`, …); `openSqliteStorage`
 * opens the SQLite implementation (kysely + better-sqlite3, FTS5 search, forward-only
 * migrations, record vectors with exact in-memory search). `tokenize` is the prompt
 * tokenizer its search uses.
 *
 * Everything exported here is public API.
 */

// The StorageBackend interface, composed of one narrow interface per aggregate (each
// documented field by field in stores/): code that needs one aggregate asks for it alone.
export type {
  BackupOptions,
  BufferStore,
  ClaimStore,
  ColumnWeights,
  DataStore,
  EventHead,
  EventPage,
  EventStore,
  ExtractionCommit,
  ExtractionLogEntry,
  ExtractionLogInput,
  ForgetCounts,
  ForgetOptions,
  ForgetResult,
  ForgetScope,
  ListEventsOptions,
  ListRecordsOptions,
  LogQuery,
  LogStore,
  Member,
  MemberStore,
  MissingVectorsOptions,
  MissingVectorsPage,
  NewMember,
  NewTeamRecordCopy,
  OutboxEntry,
  OutboxSummary,
  PendingEntry,
  PendingSummary,
  PrunePolicy,
  PutEventOptions,
  PutEventResult,
  RecordPage,
  RecordStore,
  RecordVector,
  RetrievalLogEntry,
  RetrievalLogInput,
  ScanPage,
  ScanQuery,
  SearchHit,
  SearchOptions,
  SearchStore,
  SessionReadStore,
  SessionReads,
  SessionReadsQuery,
  SharingStore,
  StatsStore,
  StorageBackend,
  StorageStats,
  StoredEvent,
  StoredEventNotice,
  SupersessionLink,
  TeamRecordCopy,
  TeamRecordDelete,
  TeamRecordInfo,
  TeamRecordWrite,
  TeamShare,
  TeamStore,
  TeamWriteOutcome,
  VectorCoverage,
  VectorSearchOptions,
  VectorStore,
} from './backend.js';
export { TEAM_RECORD_COPIES } from './backend.js';
export { StorageError, type StorageErrorCode } from './errors.js';
export { STOP_WORDS, tokenize } from './query/tokenize.js';
export { DEFAULT_COLUMN_WEIGHTS } from './query/weights.js';
// Reads served off the event loop (SQLite: a worker thread with its own connection).
export {
  READ_METHODS,
  type ReadModel,
  type StorageReader,
  type StorageReads,
} from './reads.js';
// Forgetting in a backup file too: rewritten without the scopes (off the event loop).
export {
  type CopyForgetRequest,
  type CopyForgetResult,
  forgetInCopy,
} from './sqlite/forget-copy.js';
// Checking a database file for damage (`kiro-learn doctor`).
export {
  CORRUPT_DATABASE_HELP,
  checkDatabase,
  checkDatabaseOffThread,
  type IntegrityReport,
} from './sqlite/integrity.js';
// An exclusive, crash-safe file lock (the collector's data-dir lock).
export { type FileLock, isFileLocked, lockFile } from './sqlite/lock.js';
export {
  openSqliteStorage,
  type SqliteStorage,
  type SqliteStorageOptions,
  type VectorCacheOptions,
} from './sqlite/open.js';
export { openSqliteReader, type SqliteReaderOptions } from './sqlite/reader.js';
// The exact int8 in-memory vector index (WebAssembly SIMD scan) behind `searchVectors`,
// for other backends to reuse.
export { type VectorHit, VectorIndex } from './vectors/vector-index.js';

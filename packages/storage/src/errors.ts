/** Error codes of this package. */
export type StorageErrorCode =
  | 'migration_failed'
  | 'migration_drift'
  | 'closed'
  | 'invalid_cursor'
  | 'io'
  /** lockFile: another process holds the lock. */
  | 'locked'
  /** commitExtraction: the batch's pending entries are gone (another run extracted them). */
  | 'stale_batch'
  /** The database file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB, a failed integrity check). */
  | 'corrupt';

/** The one error class of @kiro-learn/storage. */
export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}

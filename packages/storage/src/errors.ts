/** Error codes of this package. */
export type StorageErrorCode =
  | 'migration_failed'
  | 'migration_drift'
  | 'closed'
  | 'invalid_cursor'
  | 'invalid_query'
  | 'io'
  /** lockFile: another process holds the lock. */
  | 'locked'
  /** commitExtraction: the batch's pending entries are gone (another run extracted them). */
  | 'stale_batch'
  /** The database file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB, a failed integrity check). */
  | 'corrupt'
  /** The backend cannot do this (e.g. a file backup of a server database). */
  | 'unsupported'
  /** The database server cannot be reached, is restarting, or has no free connection. */
  | 'unavailable'
  /** A statement ran past the statement timeout and was cancelled. */
  | 'timeout'
  /** An option passed to open a backend is not valid. */
  | 'invalid_option'
  /** A unique name or key is taken (a member's name or token). */
  | 'conflict'
  /** supersedeRecord: the records are one, in different namespaces, or would form a cycle. */
  | 'invalid_link';

/** The one error class of @kiro-learn/storage. */
export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}

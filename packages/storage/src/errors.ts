/** Error codes of this package. */
export type StorageErrorCode =
  | 'migration_failed'
  | 'migration_drift'
  | 'closed'
  | 'invalid_cursor'
  | 'invalid_query'
  | 'io'
  /** The backend cannot do this (e.g. a file backup of a server database). */
  | 'unsupported'
  /** The database server cannot be reached, is restarting, or has no free connection. */
  | 'unavailable'
  /** A statement ran past the statement timeout and was cancelled. */
  | 'timeout'
  /** An option passed to open a backend is not valid. */
  | 'invalid_option'
  /** A unique name or key is taken (a member's name or token). */
  | 'conflict';

/** The one error class of @kiro-learn/storage. */
export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}

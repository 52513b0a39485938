/** Error codes of this package. */
export type StorageErrorCode =
  | 'migration_failed'
  | 'migration_drift'
  | 'closed'
  | 'invalid_cursor'
  | 'invalid_query'
  | 'io';

/** The one error class of @kiro-learn/storage. */
export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
    this.code = code;
  }
}

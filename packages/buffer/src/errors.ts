/** Error codes of this package. */
export type BufferErrorCode =
  /** extractNow on a project with nothing pending. */
  | 'nothing_pending'
  /** The buffer was drained (shutting down) and takes no more work. */
  | 'closed'
  /** An option cannot work (a threshold above the ceiling, a negative delay). */
  | 'invalid_options'
  /** The extractor returned records of another namespace. */
  | 'foreign_record';

/** The one error class of @kiro-learn/buffer. */
export class BufferError extends Error {
  readonly code: BufferErrorCode;

  constructor(code: BufferErrorCode, message: string) {
    super(message);
    this.name = 'BufferError';
    this.code = code;
  }
}

/** Error codes of this package. */
export type BufferErrorCode =
  /** extractNow on a project with nothing pending. */
  | 'nothing_pending'
  /** The buffer was drained (shutting down) and takes no more work. */
  | 'closed'
  /** An option cannot work (a threshold above the ceiling, a negative delay); `details` lists each. */
  | 'invalid_options'
  /** The extractor returned records of another namespace. */
  | 'foreign_record'
  /** The summarizer failed or replied with something that is not a summary; nothing was compacted. */
  | 'compaction_failed'
  /** Another collector sharing the database holds the project's extraction claim. */
  | 'claimed';

/** The one error class of @kiro-learn/buffer. */
export class BufferError extends Error {
  readonly code: BufferErrorCode;
  /** One `dot.path: message` line per problem, for `invalid_options`. */
  readonly details: readonly string[] | undefined;

  constructor(
    code: BufferErrorCode,
    message: string,
    options?: { details?: readonly string[]; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BufferError';
    this.code = code;
    this.details = options?.details;
  }
}

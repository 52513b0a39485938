/** Error codes of this package. */
export type RetrievalErrorCode = 'invalid_options';

/**
 * The one error class of @kiro-learn/retrieval. Only `createRetriever` throws it, for
 * options that cannot work; a retrieval itself never throws.
 */
export class RetrievalError extends Error {
  readonly code: RetrievalErrorCode;

  constructor(code: RetrievalErrorCode, message: string) {
    super(message);
    this.name = 'RetrievalError';
    this.code = code;
  }
}

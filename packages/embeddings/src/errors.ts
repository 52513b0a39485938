/** Error codes of this package. */
export type EmbeddingErrorCode =
  /** The model directory or one of its files is missing. */
  | 'model_not_found'
  /** A model file is there but cannot be used (bad format, unsupported tokenizer). */
  | 'model_invalid'
  /** No runtime can run the model on this machine (onnxruntime-node absent or broken). */
  | 'runtime_unavailable'
  /** Running the model failed. */
  | 'embed_failed'
  /** The embedder was closed. */
  | 'closed'
  /** The call's signal aborted before its texts were embedded. */
  | 'aborted';

/** The one error class of @kiro-learn/embeddings. */
export class EmbeddingError extends Error {
  readonly code: EmbeddingErrorCode;

  constructor(code: EmbeddingErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
    this.code = code;
  }
}

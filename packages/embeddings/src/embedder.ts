/** What an embedding is for: a query jumps ahead of queued documents. */
export type EmbedPurpose = 'query' | 'document';

/** Options of one `embed` call. */
export interface EmbedOptions {
  /** `query` (a prompt, waited on inline) runs before queued `document` work. Default `document`. */
  purpose?: EmbedPurpose;
  /**
   * Withdraws the texts not yet embedded when it aborts: they reject with `aborted` (a
   * prompt's embedding nobody waits for any more never runs).
   */
  signal?: AbortSignal;
  /**
   * Documents only: embed the texts as one job, in runs of several texts of about the same
   * length (onnxruntime-node; ~1.2× the records per CPU-second on short records). A query
   * then waits for the whole job, so this is for bulk work nobody is prompting through
   * (`kiro-learn reindex`). fp32 vectors are those of one text at a time; int8 quantises
   * a run's activations together, another rounding as near to fp32 (mean cosine 0.9966
   * against 0.9968 on the retrieval eval's records). Default false: one text per job.
   */
  batch?: boolean;
}

/**
 * A sentence-embedding model: texts in, one unit-length vector per text out. Vectors of
 * different `modelId`s are not comparable; storage keeps them apart by it.
 */
export interface Embedder {
  /** Stable id of the model (and of anything that changes its vectors). */
  readonly modelId: string;
  /** Length of every vector. */
  readonly dimension: number;
  /** The runtime that runs it: `onnxruntime-node` or `wasm`. */
  readonly runtime: EmbeddingRuntime;
  /**
   * Why onnxruntime-node is not the runtime, when the `auto` preference fell back to the
   * WASM engine (10 to 30 times slower): not installed, or it did not load here.
   */
  readonly fallbackReason?: string;
  /** One L2-normalised vector per text, in order. Rejects with EmbeddingError. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Frees the model; later calls reject with `closed`. */
  close(): Promise<void>;
}

/** The engines that can run a model. */
export type EmbeddingRuntime = 'onnxruntime-node' | 'wasm';

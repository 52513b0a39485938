/**
 * @kiro-learn/buffer: the per-project pending-event buffer and its watchers.
 *
 * Events stored with `putEvent(event, {pending: true})` wait in the database until an
 * extraction that included them succeeds. A watcher per project fires an extraction on a
 * turn end, at a size threshold or after an idle spell, one at a time per project, behind
 * a circuit breaker that backs off but never stays off. The buffer takes an `extract`
 * function, so it does not depend on any particular extractor.
 *
 * Everything exported here is public API.
 */

// Batch building (compaction extends it).
export { type Batch, type BatchLimits, buildBatch } from './batch.js';
// The circuit breaker (one per project).
export {
  type Breaker,
  type BreakerOptions,
  type BreakerSnapshot,
  type BreakerState,
  createBreaker,
} from './breaker.js';
// The buffer and its watchers.
export {
  type BufferStatus,
  type CreateBufferInput,
  createBuffer,
  type ExtractBatch,
  type ExtractFn,
  type ExtractionRun,
  type ExtractOutcome,
  type PendingBuffer,
  type ProjectStatus,
  type Trigger,
} from './buffer.js';
export { BufferError, type BufferErrorCode } from './errors.js';
// Settings and their defaults.
export { BUFFER_DEFAULTS, type BufferOptions, resolveOptions } from './options.js';

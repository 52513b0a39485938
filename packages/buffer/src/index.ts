/**
 * @kiro-learn/buffer: the per-project pending-event buffer, its watchers and compaction.
 *
 * Events stored with `putEvent(event, {pending: true})` wait in the database until an
 * extraction that included them succeeds. A watcher per project fires an extraction on a
 * turn end, at a size threshold or after an idle spell, one at a time per project, behind
 * a circuit breaker that backs off but never stays off. A batch whose prompt outgrows its
 * token budget is compacted first: old, bulky events are folded into a chain of summary
 * records (strategy `compaction`), important ones stay verbatim, reduced ones leave a
 * marker naming the raw event. The buffer takes an `extract` function (and optionally a
 * `summarize` one), so it does not depend on any particular extractor.
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
// The buffer and its watchers: createBuffer composes the backlog (pending sizes, ceiling,
// parked entries), the scheduler (a timer per project), the compaction driver and the
// runner (claims, batches, breakers).
export { createBuffer } from './buffer.js';
// Compaction: the summary chain as stored in records' metadata.
export {
  type ChainHead,
  COMPACTION_STRATEGY,
  type CompactionMetadata,
  headOf,
} from './compaction/chain.js';
// Compaction: retention kinds of events, and one batch's compaction.
export { retentionKind } from './compaction/classify.js';
export {
  type Compacted,
  type CompactInput,
  type CompactionReport,
  compactBatch,
} from './compaction/compact.js';
export { digestEvent, digestString } from './compaction/digest.js';
export {
  type FactChange,
  type FactState,
  type IntegrityResult,
  reconcileFacts,
} from './compaction/integrity.js';
// Compaction settings, their defaults and checks (for the collector's settings file).
export {
  COMPACTION_DEFAULTS,
  type CompactionOptions,
  checkCompactionOptions,
  KIND_POLICIES,
  policyOf,
  RETENTION_KINDS,
  RETENTION_POLICIES,
  type RetentionKind,
  type RetentionPolicy,
  resolveCompactionOptions,
} from './compaction/options.js';
export { marker } from './compaction/reduce.js';
// Compaction: the summarizer contract and the model-free summarizer.
export {
  createBuiltinSummarizer,
  type SummarizeFn,
  type SummarizeReply,
  type SummarizeRequest,
  type SummaryMode,
} from './compaction/summarize.js';
export { estimateTokens, type TokenCounter } from './compaction/tokens.js';
export { BufferError, type BufferErrorCode } from './errors.js';
// Settings and their defaults.
export { BUFFER_DEFAULTS, type BufferOptions, resolveOptions } from './options.js';
export type {
  BufferStatus,
  CompactionStatus,
  CreateBufferInput,
  ExtractBatch,
  ExtractFn,
  ExtractionRun,
  ExtractOutcome,
  PendingBuffer,
  ProjectStatus,
  Trigger,
} from './types.js';

import type { Event, MemoryRecord } from '@kiro-learn/schema';
import type { CompactionReply, CompactionRequest } from './compaction.js';

/** Events of one namespace to distil, oldest first. */
export interface ExtractionBatch {
  /** The namespace every event and record belongs to. */
  namespace: string;
  /** The events, oldest first. */
  events: readonly Event[];
  /**
   * The buffer's compaction summary of older events, shown before the events. Reduced
   * events then carry a one-line marker naming their id instead of their body.
   */
  summary?: string;
  /**
   * Events of the batch's sessions that came just before it (already extracted), oldest
   * first: context only, never cited. A turn the batch continues takes its request from
   * here, and a question-only turn before it becomes a question its record answers.
   */
  preceding?: readonly Event[];
  /**
   * Current records of the project the batch may change (an LLM extractor is shown them and
   * may name one a new record supersedes). Absent: none shown.
   */
  memories?: readonly MemoryRecord[];
}

/** What an extraction produced. An empty `records` means the batch held nothing worth keeping. */
export interface ExtractionResult {
  /** Which extractor ran (`acp`, `builtin`), for the extraction log. */
  extractor: string;
  /** Valid memory records, ready to store. */
  records: MemoryRecord[];
  /** Agent sessions used (garbage replies are retried with a fresh one); 1 for the built-in. */
  attempts: number;
  /**
   * Records of `batch.memories` a new record replaces, as the extractor named them: new
   * record id → older record ids (only ids it was shown).
   */
  supersedes?: Record<string, string[]>;
}

/** Anything that turns a batch into records. Rejects with an ExtractorError when it cannot. */
export interface Extractor {
  /** `acp` or `builtin`. */
  readonly name: string;
  extract(batch: ExtractionBatch): Promise<ExtractionResult>;
  /**
   * Folds events into a compaction summary (the buffer's `summarize`). The ACP extractor
   * has it; without it the buffer's model-free summarizer is used.
   */
  summarize?(request: CompactionRequest): Promise<CompactionReply>;
}

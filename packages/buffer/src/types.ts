import type { Event, MemoryRecord } from '@kiro-learn/schema';
import type { ExtractionLogInput, StorageBackend } from '@kiro-learn/storage';
import type { BreakerSnapshot, BreakerState } from './breaker.js';
import type { ChainHead } from './compaction/chain.js';
import type { CompactionReport } from './compaction/compact.js';
import type { CompactionOptions } from './compaction/options.js';
import type { SummarizeFn } from './compaction/summarize.js';
import type { TokenCounter } from './compaction/tokens.js';
import type { BufferOptions } from './options.js';

/** The buffer's public shapes: what it takes, what it reports, and its API. */

/** Why an extraction started. */
export type Trigger =
  /** Pending bytes reached the threshold. */
  | 'threshold'
  /** No new event for `idleMs`. */
  | 'idle'
  /** A `session_summary` event ended a turn, or a note said the agent's context was compacted. */
  | 'turn_end'
  /** extractNow(). */
  | 'manual'
  /** Re-armed from the database by start(). */
  | 'startup'
  /** After a failure (closed breaker), or a half-open breaker's trial. */
  | 'retry'
  /** The previous batch was capped and more was pending. */
  | 'backlog';

/** What the buffer hands to `extract`. Structurally an extractor's ExtractionBatch. */
export interface ExtractBatch {
  namespace: string;
  /** The events, oldest first. */
  events: readonly Event[];
  trigger: Trigger;
  /**
   * When the batch was compacted: the summary of older events (the chain head), to put
   * before the events. Reduced events are one-line markers naming their id.
   */
  summary?: string;
}

/** What `extract` returns. Structurally an extractor's ExtractionResult. */
export interface ExtractOutcome {
  /** Records to store; all of the batch's namespace. Empty: nothing worth keeping. */
  records: readonly MemoryRecord[];
  /** Agent sessions used, for the log. */
  attempts?: number;
  /** Which extractor ran, for the log. */
  extractor?: string;
}

/** Turns a batch into records; rejects when it cannot (the batch then stays pending). */
export type ExtractFn = (batch: ExtractBatch) => Promise<ExtractOutcome>;

/** One finished extraction: the extraction-log entry plus what the watcher knows. */
export interface ExtractionRun extends ExtractionLogInput {
  trigger: Trigger;
  /** Ids of the records stored. */
  recordIds: string[];
  /** The project's breaker after this run. */
  breaker: BreakerSnapshot;
  /** What compaction did to this batch, when its prompt was over `triggerTokens`. */
  compaction?: CompactionReport;
}

/** A project's summary chain and compaction state, for `status`, `/metrics` and the viewer. */
export interface CompactionStatus {
  enabled: boolean;
  /** The newest summary record: its id, pass, mode, the events it covers, tokens before/after. */
  head?: {
    recordId: string;
    pass: number;
    mode: ChainHead['mode'];
    range: ChainHead['range'];
    tokens: ChainHead['tokens'];
    facts: number;
    repairs: string[];
    createdAt: string;
  };
  /** Summarizer passes since start. */
  passes: number;
  /** Set when the last over-budget batch had nothing to reclaim; a newer compactable event clears it. */
  exhausted?: { at: string; tokens: number };
  /** Why the last compaction failed (it is retried with the breaker's back-off). */
  lastError?: string;
}

/** One project's buffer, as `status()` reports it. */
export interface ProjectStatus {
  namespace: string;
  pendingEvents: number;
  pendingBytes: number;
  /** Pending bytes are at the ceiling: new events are stored but not buffered. */
  overCeiling: boolean;
  /**
   * Events parked past the ceiling since start: stored, out of the buffer until its
   * backlog drains, then re-queued (oldest first) and extracted.
   */
  unbufferedEvents: number;
  /** An extraction is running now. */
  extracting: boolean;
  /** When the watcher fires next (ISO), and why. */
  next?: { at: string; trigger: Trigger };
  breaker: BreakerSnapshot;
  lastRun?: ExtractionRun;
  compaction: CompactionStatus;
}

export interface BufferStatus {
  projects: ProjectStatus[];
}

/** What createBuffer needs. */
export interface CreateBufferInput {
  /** Where events and the pending buffer live; events arrive via putEvent(event, {pending: true}). */
  storage: StorageBackend;
  /** Turns a batch into records (e.g. `(batch) => extractor.extract(batch)`). */
  extract: ExtractFn;
  /** Triggers, ceiling, batch caps and breaker settings; defaults in BUFFER_DEFAULTS. */
  options?: Partial<BufferOptions>;
  /** Compaction settings; defaults in COMPACTION_DEFAULTS. */
  compaction?: Partial<CompactionOptions>;
  /** Folds archived events into the summary chain (e.g. the ACP extractor's `summarize`); model-free rules when omitted. */
  summarize?: SummarizeFn;
  /** Counts prompt tokens; estimateTokens when omitted. */
  countTokens?: TokenCounter;
  /** Extractor name logged when the outcome names none. */
  extractorName?: string;
  /**
   * Who claims extractions (storage.claimExtraction): one id per collector process, so
   * collectors sharing a database never extract one batch twice. Random when omitted.
   */
  owner?: string;
  /** Receives errors nobody awaits (a failed log write, a failed listener). */
  onError?: (error: unknown) => void;
  /** Clock in epoch ms; Date.now when omitted. */
  now?: () => number;
}

/** The per-project pending buffer and its watchers. */
export interface PendingBuffer {
  /**
   * Tells the watcher an event was stored with `{pending: true}`. Never throws, never
   * waits: a turn end extracts now, the threshold extracts now, anything else re-arms the
   * idle timer. Past the ceiling the event is parked (it stays stored, leaves the buffer)
   * and re-queued once the project's backlog drains below the ceiling.
   */
  notify(event: Event): void;
  /**
   * False while a project is past the ceiling. A caller may pass it as putEvent's
   * `pending` flag to spare notify() taking the entry back out.
   */
  accepts(namespace: string): boolean;
  /**
   * Re-arms a watcher for every project with pending events in the database: a project
   * whose last pending event ended a turn, or at the threshold, is extracted at once; any
   * other waits out the idle time counted from its newest pending event.
   */
  start(): Promise<void>;
  /**
   * Extracts a project's pending events now (after any run in flight), even while its
   * breaker is open. Resolves with the last run, whose status may be `failed`; rejects
   * with BufferError `nothing_pending` or `closed`.
   */
  extractNow(namespace: string): Promise<ExtractionRun>;
  /** Pending sizes, breaker, next trigger and last run of every project seen. */
  status(): BufferStatus;
  /** A project's summary chain and compaction state (reads the chain head from storage once). */
  compactionStatus(namespace: string): Promise<CompactionStatus>;
  /** A project's breaker state; undefined for a project never seen. */
  breakerState(namespace: string): BreakerState | undefined;
  /** Follows finished extraction runs. Returns the unsubscribe function. */
  onExtraction(listener: (run: ExtractionRun) => void): () => void;
  /** Stops every watcher and waits for runs in flight. Pending events stay in the database. */
  drain(): Promise<void>;
}

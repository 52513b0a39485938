import type { CompactionStatus } from '@kiro-learn/buffer';
import type { StorageReads, TeamRecordCopy } from '@kiro-learn/storage';
import type { ViewerModels } from './models.js';

/** Semantic search on the health screen (the collector's SemanticStatus fits). */
export interface SemanticView {
  state: string;
  reason?: string;
  model?: string;
  runtime?: string;
  precision?: string;
  prompts: { used: number; timedOut: number; failed: number };
}

/** What the viewer needs from the collector that mounts it. */
export interface ViewerDeps {
  /**
   * Where records, logs, pending sizes and totals are read: the collector's reader
   * (openSqliteReader, off the event loop) or, where reads are async already, its storage.
   */
  storage: StorageReads;
  /** The collector's version, shown on the health screen. */
  version: string;
  /** When the collector started, in epoch milliseconds (for its uptime). */
  startedAt: number;
  /** Names the extractor in use, e.g. `ACP: kiro-cli acp --agent kiro-learn-compressor` or `built-in`. */
  extractor: () => string;
  /**
   * The heavy screens (activity, health) as read models: the daemon runs them in its
   * storage reader's thread (readerModels); in-process over `storage` when omitted.
   */
  models?: ViewerModels;
  /**
   * Semantic search as `GET /v1/status` reports it (state, model, runtime, precision, and
   * prompts answered lexical only since start); the health screen shows it.
   */
  semantic?: () => Promise<SemanticView>;
  /**
   * Records the search index has yet to take in (the collector's searchBacklog, as in
   * `GET /v1/status`); the health screen shows it while it is above 0.
   */
  searchBacklog?: () => Promise<number>;
  /** A project's circuit-breaker state (`closed`, `open`, `half-open`; PendingBuffer.breakerState). */
  breakerState?: (namespace: string) => string | undefined;
  /** A project's compaction state: summary chain head, exhaustion, last error (PendingBuffer.compactionStatus). */
  compaction?: (namespace: string) => Promise<CompactionStatus>;
  /**
   * Extracts a project's pending events now (e.g. PendingBuffer.extractNow). It may resolve
   * when the run ends; the viewer answers once it is under way. Rejects with why it cannot.
   */
  extractNow?: (namespace: string) => Promise<void>;
  /** Whether capture of a project is paused (`kiro-learn pause`), and until when. */
  paused?: (namespace: string) => { since: string; until?: string } | undefined;
  /**
   * Copies of teammates' records that went into a context on this machine (team memory:
   * storage.sharing.teamRecords); absent where no team is joined.
   */
  teamRecords?: (recordIds: readonly string[]) => Promise<TeamRecordCopy[]>;
  /** Folder of the bundled page (index.html, app.js, app.css); defaults to the package's dist/ui. */
  assetsDir?: string;
  /** Clock in epoch milliseconds; defaults to Date.now. */
  now?: () => number;
}

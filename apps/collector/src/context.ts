import type { BufferStatus } from '@kiro-learn/buffer';
import type { Event, MemoryRecord, Scrubber, SearchHit } from '@kiro-learn/schema';
import type { StorageBackend, StorageReads } from '@kiro-learn/storage';
import type { ActivityHub } from './activity.js';
import type { CaptureGate } from './capture.js';
import type { CollectorSettings } from './config/settings.js';
import type { Logger } from './log/logger.js';
import type { CollectorMetrics } from './metrics.js';
import type { RecentHooks } from './recent-hooks.js';
import type { RetrieveFn } from './retrieve.js';
import type { SemanticStatus } from './semantic.js';
import type { SseFanout } from './sse.js';
import type { StorageHealth } from './storage.js';

/**
 * A ranked search over memory records (GET /v1/memories/search, `kiro-learn search`, the
 * MCP server's search_memory). In a shared project, teammates' records from the team
 * server are merged in and carry their `author`.
 */
export type SearchFn = (query: {
  namespace?: string;
  query: string;
  limit: number;
  type?: MemoryRecord['observation_type'];
  file?: string;
}) => Promise<SearchHit[]>;

/** The extractor in use and each project's buffer state. */
export type PipelineStatus = BufferStatus & { extractor?: string };

/** What the route modules share; built once by createCollector. */
export interface AppContext {
  storage: StorageBackend;
  /**
   * Lists, totals and logs (GET lists, /v1/stats, /metrics): off the event loop where the
   * backend needs it (SQLite's reader thread), else `storage` itself.
   */
  reads: StorageReads;
  settings: CollectorSettings;
  scrubber: Scrubber;
  /** Recognises a hook that fired twice (same project, surface, session, kind and body). */
  recentHooks: RecentHooks;
  hub: ActivityHub;
  /** The SSE clients of /v1/stream (bounded, off the ingest path). */
  fanout: SseFanout;
  /**
   * Watches other collectors' events (shared PostgreSQL) for one /v1/stream reader until
   * the result is called (OthersFeed.acquire).
   */
  watchOthers: () => Promise<() => void>;
  metrics: CollectorMetrics;
  retrieve: RetrieveFn;
  /** Context for a new session (`?retrieve=session_start`); the request's prompt is empty. */
  sessionStart: RetrieveFn;
  /**
   * The session's agent had its context compacted (a compaction note): retrieval's view of
   * what it still holds starts again now (Retriever.windowReset).
   */
  windowReset: (request: { namespace: string; sessionId: string; at?: number }) => Promise<void>;
  search: SearchFn;
  /** Why an event's project must not be captured (paused, ignored, excluded), if so. */
  captureGate: CaptureGate;
  /** The collector's clock, in epoch milliseconds (injected by tests). */
  now: () => number;
  logger: Logger;
  /**
   * Embeds records for the current model before a save or an import returns (a no-op
   * without semantic search).
   */
  embedRecords: (records: readonly MemoryRecord[]) => Promise<void>;
  /** Whether semantic search is on, and why not. */
  semanticStatus: () => Promise<SemanticStatus>;
  /** Counts how a prompt retrieval's semantic share went (Semantic.notePrompt). */
  notePrompt: (outcome: 'used' | 'timed_out' | 'failed') => void;
  /** Starts embedding a prompt that will be retrieved for (Semantic.prefetch); may do nothing. */
  prefetchPrompt: (prompt: string) => void;
  /**
   * Looks at an event's project before the event is stored (team memory: is it shared?).
   * A prompt's retrieval starts while its event is stored, and asks the team server only
   * for projects known to be shared; stored events are looked at anyway.
   */
  observeProject: (event: Event) => void;
  version: string;
  startedAt: number;
  /** Extraction state per project (breaker, pending, last run); empty without a buffer. */
  status: () => PipelineStatus;
  /** Which storage backend serves, and its health (version, latency, pool). */
  storageHealth: () => Promise<StorageHealth>;
  /** Records the search index has yet to take in the background (search-backlog.ts); 0 when none. */
  searchBacklog: () => Promise<number>;
  /** Registers a function run when the collector shuts down (closes SSE streams). */
  onClose(fn: () => void): () => void;
}

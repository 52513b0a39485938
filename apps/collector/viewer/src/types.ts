// Shapes the page reads. Type-only imports: nothing of the server is bundled.
import type { CompactionMetadata, CompactionStatus } from '@kiro-learn/buffer';
import type { Event, ListMemoriesResponse, MemoryRecord } from '@kiro-learn/schema';
import type { ExtractionLogEntry, RetrievalLogEntry } from '@kiro-learn/storage';
import type { EventSummary, LatencyBucket, ProjectRow } from '../../src/viewer/index.js';

export type {
  CompactionMetadata,
  CompactionStatus,
  Event,
  EventSummary,
  ExtractionLogEntry,
  LatencyBucket,
  ListMemoriesResponse,
  MemoryRecord,
  ProjectRow,
  RetrievalLogEntry,
};

export interface Activity {
  events: EventSummary[];
  extractions: ExtractionLogEntry[];
  retrievals: RetrievalLogEntry[];
}

export type SourceItem = EventSummary | { event_id: string; missing: true };

export interface SourcesPage {
  items: SourceItem[];
  total: number;
  limit: number;
  offset: number;
}

export interface Health {
  version: string;
  uptime_s: number;
  started_at: string;
  db_bytes: number;
  extractor: string;
  events: number;
  memories: number;
  projects: number;
  latency: LatencyBucket[];
  /** Records the search index has yet to take in; absent when none. */
  search_backlog?: number;
  /** Semantic search; absent when the collector has no embedding model at all. */
  semantic?: {
    state: string;
    reason?: string;
    model?: string;
    runtime?: string;
    precision?: string;
    /** Prompt retrievals since start by how the semantic share went. */
    prompts: { used: number; timed_out: number; failed: number };
  };
}

/** Who shared a team server's record (GET /ui/api/team). */
export interface TeamRecordOrigin {
  team: string;
  author: string;
  revision: number;
  updated_at: string;
}

/** One row of the live feed. */
export type FeedItem =
  | { type: 'event'; key: string; at: string; event: EventSummary }
  | { type: 'extraction'; key: string; at: string; extraction: ExtractionLogEntry }
  | { type: 'retrieval'; key: string; at: string; retrieval: RetrievalLogEntry };

import type { MemoryRecord } from '@kiro-learn/schema';
import type { EventHead } from './events.js';

/**
 * What retrieval reads about a prompt's session before it ranks: which of the project's
 * records the session made (its working set) and which the agent still holds. Asked on
 * every prompt, so it is one read: on a team server each read is a round trip on the
 * shared pool.
 */
export interface SessionReadStore {
  /**
   * The project's newest records (as listRecords: by `created_at`, then id, newest first;
   * no total) and the heads of the session's newest events (by arrival), read together.
   */
  sessionReads(query: SessionReadsQuery): Promise<SessionReads>;
}

export interface SessionReadsQuery {
  /** Exact namespace of the records. */
  namespace: string;
  /** The session whose events are read (in any namespace, as getEventHeads finds them). */
  sessionId: string;
  /** Most records (0: none). */
  records: number;
  /** Most events of the session. */
  events: number;
}

export interface SessionReads {
  /** Newest first. */
  records: MemoryRecord[];
  /** The session's events, newest first by arrival, at most `events`. */
  events: EventHead[];
  /** True when `events` holds every event the session has (no more than asked were stored). */
  complete: boolean;
}

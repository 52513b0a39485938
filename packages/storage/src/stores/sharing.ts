import type { MemoryRecord } from '@kiro-learn/schema';

/**
 * Team memory on a developer's machine: which namespaces are shared with the team, and the
 * durable outbox of their records waiting to be pushed. Every write of a record in a
 * shared namespace (insert, edit, delete, forget, import) queues an outbox entry in the
 * same transaction as the write itself (database triggers), so nothing written can miss
 * the outbox and nothing queued can outlive a rolled-back write.
 */
export interface SharingStore {
  /**
   * Shares a namespace under the team's `projectId`. The first time, every record it
   * already holds is queued too (oldest first). Idempotent: `added` false and nothing
   * queued when it was shared already.
   */
  share(namespace: string, projectId: string): Promise<{ added: boolean; queued: number }>;
  /** Stops sharing a namespace and drops its entries not yet pushed. */
  unshare(namespace: string): Promise<{ removed: boolean; dropped: number }>;
  /** Shared namespaces, by namespace. */
  listShares(): Promise<TeamShare[]>;
  /** The oldest outbox entries (ascending `seq`), at most `limit`. */
  nextOutbox(limit: number): Promise<OutboxEntry[]>;
  /** Removes pushed entries. Returns how many went. */
  completeOutbox(seqs: readonly number[]): Promise<number>;
  /** Counts a failed push of an entry (it stays, in place) and keeps why. */
  failOutbox(seq: number, error: string): Promise<void>;
  /** How many entries wait, since when, and the last failure among them. */
  outboxSummary(): Promise<OutboxSummary>;
  /**
   * Keeps copies of team records that went into a context (the viewer shows them with
   * their author); the newest `TEAM_RECORD_COPIES` are kept. Replaces by record_id.
   */
  rememberTeamRecords(copies: readonly NewTeamRecordCopy[]): Promise<void>;
  /** Kept copies by record_id, in the order asked (missing ids are left out). */
  teamRecords(recordIds: readonly string[]): Promise<TeamRecordCopy[]>;
}

/** How many copies of team records `rememberTeamRecords` keeps. */
export const TEAM_RECORD_COPIES = 2000;

/** A namespace whose records go to the team server. */
export interface TeamShare {
  /** The shared project (exact namespace). */
  namespace: string;
  /** The project id the team server files them under (the namespace's project part). */
  projectId: string;
  /** ISO time it was shared. */
  sharedAt: string;
}

/** One record write waiting to be pushed to the team server. */
export interface OutboxEntry {
  /** Position in the outbox; grows with every write, so it is the record's revision too. */
  seq: number;
  /** The record written. */
  recordId: string;
  /** Its namespace on this machine. */
  namespace: string;
  /** The project id the team server files it under. */
  projectId: string;
  /** `put`: send the record as it is now (when it still exists); `delete`: delete it there. */
  op: 'put' | 'delete';
  /** ISO time it was queued. */
  queuedAt: string;
  /** Failed pushes so far. */
  attempts: number;
  /** Why the last push failed. */
  lastError?: string;
}

export interface OutboxSummary {
  /** Entries waiting. */
  count: number;
  /** ISO time the oldest entry was queued. */
  oldestAt?: string;
  /** Why the oldest failing entry failed last. */
  lastError?: string;
}

export interface NewTeamRecordCopy {
  /** A teammate's record as the team server returned it. */
  record: MemoryRecord;
  /** The member who shared it. */
  author: string;
  /** The project it was shared to. */
  projectId: string;
}

export interface TeamRecordCopy extends NewTeamRecordCopy {
  /** ISO time it was last seen in a context. */
  seenAt: string;
}

import type { MemoryRecord } from '@kiro-learn/schema';

/**
 * Team records, on a team server: what members share. A team record is an ordinary
 * memory record (search, vectors, forget and export see it) with its team, author and
 * revision beside it; a deleted one leaves a tombstone.
 */
export interface TeamStore {
  /**
   * Stores a record a member pushed, in its team, as the next revision: atomic, so the
   * author and revision rules hold under concurrent pushes. Decided in this order:
   * `conflict` when the id is a record outside the team (another team's, or not shared at
   * all), or the team's record of another project (`namespace` says which: a record is
   * never moved between projects); `forbidden` when another member authored it and the
   * pusher is no admin; `stale` when the stored revision is at least this one (nothing
   * changes); else `stored`. The author stays the first pusher. A record the team deleted
   * answers `gone`. StorageError `invalid_option` for a revision outside
   * 1..LIMITS.teamRevision.
   */
  putTeamRecord(write: TeamRecordWrite): Promise<TeamWriteOutcome>;
  /**
   * Deletes a team's record: `missing` when it is not one of the team's records. A deleted
   * record leaves a tombstone: a later push of its id answers `gone`, whatever its revision.
   */
  deleteTeamRecord(request: TeamRecordDelete): Promise<'deleted' | 'missing' | 'forbidden'>;
  /** Team, author and revision of these records (ids that are no team record are left out). */
  teamRecordInfo(recordIds: readonly string[]): Promise<TeamRecordInfo[]>;
}

/** A record pushed to a team server (putTeamRecord). */
export interface TeamRecordWrite {
  /** The record, its namespace already the team's (the caller builds it). */
  record: MemoryRecord;
  /** The pushing member's team. */
  team: string;
  /** The pushing member. */
  member: string;
  /** May overwrite records other members of the team authored. */
  admin: boolean;
  /** 1..LIMITS.teamRevision; grows with every edit on the author's machine. */
  revision: number;
}

export type TeamWriteOutcome =
  | { status: 'stored' }
  /** The stored revision is at least the pushed one: nothing changed. */
  | { status: 'stale'; revision: number }
  /** Another member authored it, and the pusher is no admin. */
  | { status: 'forbidden'; author: string }
  /**
   * The id is taken outside the team's records; or, with `namespace`, it is the team's
   * record of another project (that namespace): a record stays in the project it was first
   * shared to, as a local record stays in its namespace.
   */
  | { status: 'conflict'; namespace?: string }
  /** The record was deleted from the team's records (deleteTeamRecord): not taken again. */
  | { status: 'gone'; deletedAt: string };

export interface TeamRecordDelete {
  /** The record to delete. */
  recordId: string;
  /** The deleting member's team. */
  team: string;
  /** The deleting member. */
  member: string;
  /** May delete records other members of the team authored. */
  admin: boolean;
}

/** Who shared a record, in which team, at which revision. */
export interface TeamRecordInfo {
  /** The record. */
  recordId: string;
  /** The team it was shared in. */
  team: string;
  /** The member who first pushed it. */
  author: string;
  /** The revision stored (the highest pushed). */
  revision: number;
  /** ISO time of the last stored push. */
  updatedAt: string;
}

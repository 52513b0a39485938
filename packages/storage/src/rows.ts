import type { MemoryRecord } from '@kiro-learn/schema';
import type { EventHead } from './stores/events.js';
import type { Member, NewMember } from './stores/members.js';
import type { OutboxEntry } from './stores/sharing.js';
import { recordSupersession, supersessionColumns } from './supersession.js';

/** Rows both backends store alike, and how they map to the API's objects. */

/**
 * A memory record's stored columns, alike on both backends (`memory_records`): arrays and
 * metadata as JSON text, optional fields as NULL. Each backend adds columns of its own
 * (SQLite: `rid`, `ns_token`; PostgreSQL: the search vectors).
 */
export interface RecordColumns {
  record_id: string;
  namespace: string;
  strategy: string;
  title: string;
  summary: string;
  /** JSON list. */
  facts: string;
  /** JSON list. */
  concepts: string;
  /** JSON list: the record's `files_touched`. */
  files: string;
  observation_type: string;
  /** JSON list. */
  source_event_ids: string;
  created_at: string;
  updated_at: string | null;
  /** JSON object, or NULL when the record has none. */
  metadata: string | null;
  /** JSON list (SQLite migration 0011, PostgreSQL 0010); `[]` when the record has none. */
  questions: string;
  superseded_by: string | null;
  superseded_at: string | null;
  superseded_reason: string | null;
}

/** The columns of a record that are its content as first stored (migration 0001). */
export const RECORD_CONTENT_COLUMNS = [
  'record_id',
  'namespace',
  'strategy',
  'title',
  'summary',
  'facts',
  'concepts',
  'files',
  'observation_type',
  'source_event_ids',
  'created_at',
  'updated_at',
  'metadata',
] as const satisfies ReadonlyArray<keyof RecordColumns>;

/** Every stored column of a record, alike on both backends: its content, questions and supersession. */
export const RECORD_COLUMNS = [
  ...RECORD_CONTENT_COLUMNS,
  'questions',
  'superseded_by',
  'superseded_at',
  'superseded_reason',
] as const satisfies ReadonlyArray<keyof RecordColumns>;

/** The columns a record is stored as. */
export function columnsOfRecord(record: MemoryRecord): RecordColumns {
  return {
    record_id: record.record_id,
    namespace: record.namespace,
    strategy: record.strategy,
    title: record.title,
    summary: record.summary,
    facts: JSON.stringify(record.facts),
    concepts: JSON.stringify(record.concepts),
    files: JSON.stringify(record.files_touched),
    observation_type: record.observation_type,
    source_event_ids: JSON.stringify(record.source_event_ids),
    created_at: record.created_at,
    updated_at: record.updated_at ?? null,
    metadata: record.metadata === undefined ? null : JSON.stringify(record.metadata),
    ...supersessionColumns(record),
  };
}

/** The record stored as these columns: exactly the record that was written. */
export function recordOfColumns(row: RecordColumns): MemoryRecord {
  return {
    record_id: row.record_id,
    namespace: row.namespace,
    strategy: row.strategy,
    title: row.title,
    summary: row.summary,
    facts: JSON.parse(row.facts) as string[],
    concepts: JSON.parse(row.concepts) as string[],
    files_touched: JSON.parse(row.files) as string[],
    observation_type: row.observation_type as MemoryRecord['observation_type'],
    source_event_ids: JSON.parse(row.source_event_ids) as string[],
    created_at: row.created_at,
    ...(row.updated_at !== null ? { updated_at: row.updated_at } : {}),
    ...(row.metadata !== null
      ? { metadata: JSON.parse(row.metadata) as Record<string, unknown> }
      : {}),
    ...recordSupersession(row),
  };
}

/** An event's head as both backends read it from `events` (the JSON left unparsed). */
export function eventHeadOfRow(row: {
  event_id: string;
  namespace: string;
  session_id: string;
  kind: string;
  valid_time: string;
}): EventHead {
  return {
    eventId: row.event_id,
    namespace: row.namespace,
    sessionId: row.session_id,
    kind: row.kind as EventHead['kind'],
    validTime: row.valid_time,
  };
}

/** A member's row (both backends: `members`, without the token hash). */
export function memberOfRow(row: {
  name: string;
  team: string;
  role: string;
  created_at: string;
}): Member {
  return {
    name: row.name,
    team: row.team,
    role: row.role as Member['role'],
    createdAt: row.created_at,
  };
}

/** A new member as both backends store it: team `default` unless named, added now. */
export function memberOf(member: NewMember, createdAt: string): Member {
  return {
    name: member.name,
    team: member.team ?? 'default',
    role: member.role,
    createdAt,
  };
}

/** A row of the team outbox (both backends; `seq` a BIGINT, a string on PostgreSQL). */
export interface OutboxRow {
  seq: number | string;
  shared_record_id: string;
  namespace: string;
  project_id: string;
  op: 'put' | 'delete';
  queued_at: string;
  attempts: number;
  last_error: string | null;
}

/** The outbox entry of a row. */
export function outboxEntryOfRow(row: OutboxRow): OutboxEntry {
  return {
    seq: Number(row.seq),
    recordId: row.shared_record_id,
    namespace: row.namespace,
    projectId: row.project_id,
    op: row.op,
    queuedAt: row.queued_at,
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
  };
}

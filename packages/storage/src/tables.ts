import type { RecordColumns } from './rows.js';

/**
 * The tables both backends have, column by column, for kysely's typed queries. Only the
 * SQL types differ between the dialects, and those are parameters: PostgreSQL's BIGINT
 * columns arrive as strings (node-postgres keeps their full range) and its flags as
 * booleans; SQLite gives numbers for both. Each backend adds the tables of its own.
 */
export interface ColumnTypes {
  /** A BIGINT (a sequence, a count, a revision). */
  big: unknown;
  /** An id the database assigns: absent on insert. */
  serial: unknown;
  /** A true/false column. */
  flag: unknown;
}

export interface SharedTables<T extends ColumnTypes> {
  events: {
    seq: T['serial'];
    event_id: string;
    namespace: string;
    session_id: string;
    kind: string;
    valid_time: string;
    received_at: string;
    bytes: number;
    json: string;
  };
  /** Events waiting for extraction, per namespace in arrival order. */
  pending: PendingRow<T>;
  /** Same shape as `pending`: entries set aside past the ceiling. */
  parked: PendingRow<T>;
  retrieval_log: {
    id: T['serial'];
    namespace: string;
    session_id: string | null;
    event_id: string | null;
    query: string;
    record_ids: string;
    scores: string;
    latency_ms: number;
    timed_out: T['flag'];
    budget_cut: T['flag'];
    error: string | null;
    created_at: string;
  };
  extraction_log: {
    id: T['serial'];
    namespace: string;
    extractor: string;
    status: string;
    batch_size: number;
    records: number;
    attempts: number;
    duration_ms: number;
    error: string | null;
    started_at: string;
  };
  namespace_counts: {
    namespace: string;
    events: T['big'];
    memories: T['big'];
    last_event_at: string | null;
  };
  kind_counts: { namespace: string; kind: string; n: T['big'] };
  type_counts: { namespace: string; observation_type: string; n: T['big'] };
  members: { name: string; team: string; role: string; token_hash: string; created_at: string };
  team_records: {
    record_id: string;
    team: string;
    author: string;
    revision: T['big'];
    updated_at: string;
  };
  team_tombstones: {
    deleted_record_id: string;
    team: string;
    deleted_by: string;
    deleted_at: string;
  };
  memory_records: RecordColumns;
}

interface PendingRow<T extends ColumnTypes> {
  namespace: string;
  event_id: string;
  seq: T['big'];
  bytes: number;
  appended_at: string;
}

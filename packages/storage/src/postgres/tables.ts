import type { Generated } from 'kysely';
import type { RecordColumns } from '../rows.js';

/**
 * Row shapes of the PostgreSQL schema (see migrations.ts), for kysely's typed queries.
 * BIGINT columns arrive as strings (node-postgres keeps their full range); counts are
 * converted with Number() where they are read.
 */
export interface PgTables {
  events: {
    seq: Generated<string>;
    event_id: string;
    namespace: string;
    session_id: string;
    kind: string;
    valid_time: string;
    received_at: string;
    bytes: number;
    json: string;
  };
  memory_records: PgRecordRow & { search: unknown; questions_search: unknown };
  pending: {
    namespace: string;
    event_id: string;
    seq: string;
    bytes: number;
    appended_at: string;
  };
  parked: {
    namespace: string;
    event_id: string;
    seq: string;
    bytes: number;
    appended_at: string;
  };
  retrieval_log: {
    id: Generated<string>;
    namespace: string;
    session_id: string | null;
    event_id: string | null;
    query: string;
    record_ids: string;
    scores: string;
    latency_ms: number;
    timed_out: boolean;
    budget_cut: boolean;
    error: string | null;
    created_at: string;
  };
  extraction_log: {
    id: Generated<string>;
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
    events: string;
    memories: string;
    last_event_at: string | null;
  };
  members: { name: string; team: string; role: string; token_hash: string; created_at: string };
  team_records: {
    record_id: string;
    team: string;
    author: string;
    /** BIGINT: arrives as a string. */
    revision: string;
    updated_at: string;
  };
  team_tombstones: {
    deleted_record_id: string;
    team: string;
    deleted_by: string;
    deleted_at: string;
  };
  extraction_claims: { namespace: string; owner: string; expires_at: Date };
  kind_counts: { namespace: string; kind: string; n: string };
  type_counts: { namespace: string; observation_type: string; n: string };
}

/** A memory record as stored (arrays and metadata as JSON text, like the SQLite backend). */
export type PgRecordRow = RecordColumns;

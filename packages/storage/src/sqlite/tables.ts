import type { RecordColumns } from '../rows.js';

/** Row shapes of the SQLite schema (see migrations.ts), for kysely's typed queries. */
export interface Tables {
  events: {
    seq: number | undefined;
    event_id: string;
    namespace: string;
    session_id: string;
    kind: string;
    valid_time: string;
    received_at: string;
    bytes: number;
    json: string;
  };
  /** The common columns (RecordColumns), its row id, and its namespace's FTS5 token. */
  memory_records: RecordColumns & { rid: number | undefined; ns_token: string };
  pending: {
    namespace: string;
    event_id: string;
    seq: number;
    bytes: number;
    appended_at: string;
  };
  /** Same shape as `pending`: entries set aside past the ceiling (migration 0004). */
  parked: {
    namespace: string;
    event_id: string;
    seq: number;
    bytes: number;
    appended_at: string;
  };
  retrieval_log: {
    id: number | undefined;
    namespace: string;
    session_id: string | null;
    event_id: string | null;
    query: string;
    record_ids: string;
    scores: string;
    latency_ms: number;
    timed_out: number;
    budget_cut: number;
    error: string | null;
    created_at: string;
  };
  extraction_log: {
    id: number | undefined;
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
  record_vectors: {
    seq: number | undefined;
    record_id: string;
    namespace: string;
    model_id: string;
    dim: number;
    vector: Uint8Array;
  };
  vector_generations: { namespace: string; generation: number };
  namespace_counts: {
    namespace: string;
    events: number;
    memories: number;
    last_event_at: string | null;
  };
  kind_counts: { namespace: string; kind: string; n: number };
  members: { name: string; team: string; role: string; token_hash: string; created_at: string };
  team_records: {
    record_id: string;
    team: string;
    author: string;
    revision: number;
    updated_at: string;
  };
  team_tombstones: {
    deleted_record_id: string;
    team: string;
    deleted_by: string;
    deleted_at: string;
  };
  type_counts: { namespace: string; observation_type: string; n: number };
}

export type RecordRow = Tables['memory_records'];

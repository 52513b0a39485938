import type { RecordColumns } from '../rows.js';
import type { SharedTables } from '../tables.js';

/** Row shapes of the SQLite schema (see migrations.ts), for kysely's typed queries. */
export interface Tables
  extends Omit<
    SharedTables<{ big: number; serial: number | undefined; flag: number }>,
    'memory_records'
  > {
  /** The common columns (RecordColumns), its row id, and its namespace's FTS5 token. */
  memory_records: RecordColumns & { rid: number | undefined; ns_token: string };
  record_vectors: {
    seq: number | undefined;
    record_id: string;
    namespace: string;
    model_id: string;
    dim: number;
    vector: Uint8Array;
  };
  vector_generations: { namespace: string; generation: number };
}

export type RecordRow = Tables['memory_records'];

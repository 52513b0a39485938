import type { Generated } from 'kysely';
import type { RecordColumns } from '../rows.js';
import type { SharedTables } from '../tables.js';

/**
 * Row shapes of the PostgreSQL schema (see migrations.ts), for kysely's typed queries.
 * BIGINT columns arrive as strings (node-postgres keeps their full range); counts are
 * converted with Number() where they are read.
 */
export interface PgTables
  extends Omit<
    SharedTables<{ big: string; serial: Generated<string>; flag: boolean }>,
    'memory_records'
  > {
  memory_records: PgRecordRow & { search: unknown; questions_search: unknown };
  extraction_claims: { namespace: string; owner: string; expires_at: Date };
}

/** A memory record as stored (arrays and metadata as JSON text, like the SQLite backend). */
export type PgRecordRow = RecordColumns;

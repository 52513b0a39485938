import type { MemoryRecord } from '@kiro-learn/schema';
import { sql } from 'kysely';
import { columnsOfRecord, RECORD_COLUMNS, recordOfColumns } from '../rows.js';
import { withoutNul } from './context.js';
import type { PgRecordRow } from './tables.js';

/** The stored columns of a record (without its search vectors). */
export { RECORD_COLUMNS };

/** A record as PostgreSQL stores it: the common columns, NUL characters left out (text refuses them). */
export function pgRowFromRecord(record: MemoryRecord): PgRecordRow {
  const columns = columnsOfRecord(record);
  const row = { ...columns };
  for (const column of RECORD_COLUMNS) {
    const value = columns[column];
    if (value !== null) row[column] = withoutNul(value);
  }
  return row;
}

/** The record of a stored row. */
export const pgRecordFromRow: (row: PgRecordRow) => MemoryRecord = recordOfColumns;

/** `SELECT` list of a record's stored columns, qualified by `alias`. */
export const recordColumns = (alias: string) =>
  sql.join(RECORD_COLUMNS.map((c) => sql.ref(`${alias}.${c}`)));

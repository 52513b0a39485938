import { createHash } from 'node:crypto';
import type { MemoryRecord } from '@kiro-learn/schema';
import { columnsOfRecord, recordOfColumns } from '../rows.js';
import type { RecordRow } from './tables.js';

/** A record as SQLite stores it: the common columns, and its namespace's index token. */
export function rowFromRecord(record: MemoryRecord): RecordRow {
  return {
    rid: undefined,
    ...columnsOfRecord(record),
    ns_token: namespaceToken(record.namespace),
  };
}

/** The record of a stored row. */
export const recordFromRow: (row: RecordRow) => MemoryRecord = recordOfColumns;

/**
 * One index token per namespace (letters and digits only, so FTS5 keeps it whole). Search
 * intersects it with the query terms inside FTS5, so only the namespace's matches are
 * ranked; the namespace column itself is still compared exactly afterwards.
 */
export function namespaceToken(namespace: string): string {
  return `ns${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
}

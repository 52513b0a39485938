import type Database from 'better-sqlite3';
import { RECORD_COLUMNS as COMMON_RECORD_COLUMNS } from '../rows.js';

/** A record's columns in SQLite: the common ones and its namespace's FTS5 token. */
const RECORD_COLUMNS = [...COMMON_RECORD_COLUMNS, 'ns_token'] as const;

export type WriteStatements = Record<
  | 'insertEvent'
  | 'insertPending'
  | 'deletePending'
  | 'parkPending'
  | 'deleteParked'
  | 'unparkOldest'
  | 'selectRecord'
  | 'deleteRecord'
  | 'insertRecord'
  | 'updateRecord'
  | 'selectLinksTo'
  | 'setLink'
  | 'insertRetrieval'
  | 'insertExtraction',
  Database.Statement
>;

/**
 * The prepared statements of every write (run by WriteBatcher inside its synchronous
 * transaction). Prepared once: parsing and planning cost more than a small insert.
 */
export function prepareWrites(sqlite: Database.Database): WriteStatements {
  const prepare = (source: string) => sqlite.prepare(source);
  return {
    insertEvent: prepare(
      `INSERT INTO events (event_id, namespace, session_id, kind, valid_time, received_at, bytes, json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING seq`,
    ),
    insertPending: prepare(
      'INSERT INTO pending (namespace, event_id, seq, bytes, appended_at) VALUES (?, ?, ?, ?, ?)',
    ),
    deletePending: prepare('DELETE FROM pending WHERE namespace = ? AND event_id = ?'),
    parkPending: prepare(
      `INSERT OR IGNORE INTO parked (namespace, event_id, seq, bytes, appended_at)
       SELECT namespace, event_id, seq, bytes, appended_at FROM pending
       WHERE namespace = ? AND event_id = ?`,
    ),
    deleteParked: prepare('DELETE FROM parked WHERE namespace = ? AND event_id = ?'),
    unparkOldest: prepare(
      `SELECT event_id, seq, bytes, appended_at FROM parked WHERE namespace = ?
       ORDER BY seq LIMIT 500`,
    ),
    selectRecord: prepare('SELECT * FROM memory_records WHERE record_id = ?'),
    deleteRecord: prepare('DELETE FROM memory_records WHERE record_id = ?'),
    insertRecord: prepare(
      `INSERT INTO memory_records (${RECORD_COLUMNS.join(', ')})
       VALUES (${RECORD_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    ),
    updateRecord: prepare(
      `UPDATE memory_records SET ${RECORD_COLUMNS.map((c) => `${c} = @${c}`).join(', ')}
       WHERE record_id = @target`,
    ),
    // Supersession links (migration 0011): who points at a record, and setting one.
    selectLinksTo: prepare(
      `SELECT record_id, superseded_by, superseded_at, superseded_reason FROM memory_records
       WHERE superseded_by = ?`,
    ),
    setLink: prepare(
      `UPDATE memory_records SET superseded_by = @superseded_by, superseded_at = @superseded_at,
         superseded_reason = @superseded_reason WHERE record_id = @record_id`,
    ),
    insertRetrieval: prepare(
      `INSERT INTO retrieval_log (namespace, session_id, event_id, query, record_ids, scores,
         latency_ms, timed_out, budget_cut, error, created_at)
       VALUES (@namespace, @session_id, @event_id, @query, @record_ids, @scores,
         @latency_ms, @timed_out, @budget_cut, @error, @created_at)`,
    ),
    insertExtraction: prepare(
      `INSERT INTO extraction_log (namespace, extractor, status, batch_size, records, attempts,
         duration_ms, error, started_at)
       VALUES (@namespace, @extractor, @status, @batch_size, @records, @attempts,
         @duration_ms, @error, @started_at)`,
    ),
  };
}

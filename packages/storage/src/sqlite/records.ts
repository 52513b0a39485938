import type { MemoryRecord } from '@kiro-learn/schema';
import type { ListRecordsOptions, RecordStore } from '../backend.js';
import { listRecordPage } from '../portable.js';
import { RECORD_COLUMNS, type RecordColumns, recordOfColumns } from '../rows.js';
import { checkLink, followChain } from '../supersession.js';
import { now, type SqliteContext, selectInChunks } from './context.js';
import { recordFromRow, rowFromRecord } from './rows.js';
import type { RecordRow } from './tables.js';
import type { WriteStatements } from './writes.js';

interface LinkRow {
  record_id: string;
  superseded_by: string | null;
  superseded_at: string | null;
  superseded_reason: string | null;
}

/**
 * Delete then insert: a fresh rid, and the triggers keep FTS and the counts right. The
 * delete trigger releases records this one superseded (a deleted record retires nothing):
 * a replaced record keeps them, so their links are put back.
 * Synchronous: runs inside a write (WriteBatcher).
 */
export function upsertRecord(w: WriteStatements, row: RecordRow): void {
  const links = w.selectLinksTo.all(row.record_id) as LinkRow[];
  w.deleteRecord.run(row.record_id);
  w.insertRecord.run(row);
  for (const link of links) w.setLink.run(link);
}

/** Memory records: upserts, lookups, patches, and listing with trigger-kept totals. */
export function sqliteRecords(ctx: SqliteContext): RecordStore {
  const { db, w, writes } = ctx;

  return {
    async putRecord(record) {
      ctx.ensureOpen();
      const row = rowFromRecord(record);
      await writes.enqueue(() => upsertRecord(w, row));
    },

    async insertRecord(record) {
      ctx.ensureOpen();
      const row = rowFromRecord(record);
      // The write queue runs one write at a time, so the check and the insert are one step.
      return writes.enqueue(() => {
        if (w.selectRecord.get(row.record_id) !== undefined) return false;
        w.insertRecord.run(row);
        return true;
      });
    },

    async getRecord(recordId) {
      ctx.ensureOpen();
      const row = await db
        .selectFrom('memory_records')
        .selectAll()
        .where('record_id', '=', recordId)
        .executeTakeFirst();
      return row ? recordFromRow(row) : undefined;
    },

    async getRecords(recordIds) {
      ctx.ensureOpen();
      if (recordIds.length === 0) return [];
      const rows = await db
        .selectFrom('memory_records')
        .selectAll()
        .where('record_id', 'in', [...recordIds])
        .execute();
      const byId = new Map(rows.map((row) => [row.record_id, recordFromRow(row)]));
      return recordIds.flatMap((id) => byId.get(id) ?? []);
    },

    async updateRecord(recordId, patch) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        const row = w.selectRecord.get(recordId) as RecordRow | undefined;
        if (!row) return undefined;
        const updated: MemoryRecord = { ...recordFromRow(row), ...patch, updated_at: now() };
        w.updateRecord.run({ ...rowFromRecord(updated), target: recordId });
        return updated;
      });
    },

    async deleteRecord(recordId) {
      ctx.ensureOpen();
      return writes.enqueue(() => w.deleteRecord.run(recordId).changes > 0);
    },

    async supersedeRecord(link) {
      ctx.ensureOpen();
      // Checked and written in one step of the write queue: no other link can slip in
      // between and close a cycle.
      return writes.enqueue(() => {
        const older = w.selectRecord.get(link.recordId) as RecordRow | undefined;
        const newer = w.selectRecord.get(link.supersededBy) as RecordRow | undefined;
        if (!older || !newer) return undefined;
        const successorOf = (id: string) =>
          (w.selectRecord.get(id) as RecordRow | undefined)?.superseded_by;
        checkLink(older, newer, followChain(newer.record_id, successorOf));
        w.setLink.run({
          record_id: link.recordId,
          superseded_by: link.supersededBy,
          superseded_at: link.at ?? now(),
          superseded_reason: link.reason ?? null,
        });
        return recordFromRow(w.selectRecord.get(link.recordId) as RecordRow);
      });
    },

    async clearSupersession(recordId) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        w.setLink.run({
          record_id: recordId,
          superseded_by: null,
          superseded_at: null,
          superseded_reason: null,
        });
        const row = w.selectRecord.get(recordId) as RecordRow | undefined;
        return row ? recordFromRow(row) : undefined;
      });
    },

    async listSuperseded(recordIds) {
      ctx.ensureOpen();
      const rows = await selectInChunks(recordIds, (chunk) =>
        db.selectFrom('memory_records').selectAll().where('superseded_by', 'in', chunk).execute(),
      );
      return rows.map(recordFromRow).sort(newestFirst);
    },

    async listRecords(query) {
      ctx.ensureOpen();
      if (!plainListing(query)) return listRecordPage(db, query);
      // A project's newest records (retrieval's working set asks on every prompt): the same
      // page as listRecordPage, through prepared statements instead of built queries.
      const rows = ctx.statements
        .prepare(
          `SELECT ${RECORD_COLUMNS.join(', ')} FROM memory_records WHERE namespace = ?
           ORDER BY created_at DESC, record_id DESC LIMIT ? OFFSET ?`,
        )
        .all(query.namespace, query.limit, query.offset ?? 0) as RecordColumns[];
      if (query.count === false) return { items: rows.map(recordOfColumns), total: -1 };
      const total = ctx.statements
        .prepare('SELECT sum(memories) FROM namespace_counts WHERE namespace = ?')
        .pluck()
        .get(query.namespace) as number | null;
      return { items: rows.map(recordOfColumns), total: Number(total ?? 0) };
    },
  };
}

/** A listing of one namespace with no other filter. */
function plainListing(
  query: ListRecordsOptions,
): query is ListRecordsOptions & { namespace: string } {
  return (
    query.namespace !== undefined &&
    query.observationType === undefined &&
    query.strategy === undefined &&
    query.since === undefined &&
    query.until === undefined &&
    query.current !== true
  );
}

/** Newest first by `created_at`, then id (the order of listRecords). */
export function newestFirst(a: MemoryRecord, b: MemoryRecord): number {
  return (
    b.created_at.localeCompare(a.created_at) ||
    (a.record_id < b.record_id ? 1 : a.record_id > b.record_id ? -1 : 0)
  );
}

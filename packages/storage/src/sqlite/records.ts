import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '../backend.js';
import { countRecords } from '../portable.js';
import { now, type SqliteContext } from './context.js';
import { recordFromRow, rowFromRecord } from './rows.js';
import type { RecordRow } from './tables.js';
import type { WriteStatements } from './writes.js';

export type RecordMethods = Pick<
  StorageBackend,
  | 'putRecord'
  | 'insertRecord'
  | 'getRecord'
  | 'getRecords'
  | 'updateRecord'
  | 'deleteRecord'
  | 'listRecords'
>;

/**
 * Delete then insert: a fresh rid, and the triggers keep FTS and the counts right.
 * Synchronous: runs inside a write (WriteBatcher).
 */
export function upsertRecord(w: WriteStatements, row: RecordRow): void {
  w.deleteRecord.run(row.record_id);
  w.insertRecord.run(row);
}

/** Memory records: upserts, lookups, patches, and listing with trigger-kept totals. */
export function sqliteRecords(ctx: SqliteContext): RecordMethods {
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

    async listRecords(query) {
      ctx.ensureOpen();
      let q = db.selectFrom('memory_records');
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      if (query.observationType !== undefined)
        q = q.where('observation_type', '=', query.observationType);
      if (query.strategy !== undefined) q = q.where('strategy', '=', query.strategy);
      if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
      if (query.until !== undefined) q = q.where('created_at', '<', query.until);
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('record_id', 'desc')
        .limit(query.limit)
        .offset(query.offset ?? 0)
        .execute();
      return { items: rows.map(recordFromRow), total: await countRecords(db, query) };
    },
  };
}

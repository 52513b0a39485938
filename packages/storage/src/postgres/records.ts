import type { MemoryRecord } from '@kiro-learn/schema';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { RecordStore } from '../backend.js';
import { listRecordPage } from '../portable.js';
import { checkLink, followChain } from '../supersession.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';
import { pgRecordFromRow, pgRowFromRecord, RECORD_COLUMNS, recordColumns } from './rows.js';
import { questionsVector, searchVector } from './search.js';
import type { PgRecordRow, PgTables } from './tables.js';

/**
 * Inserts or replaces a record with its search vector, in one statement. Works on a
 * transaction as well as on the pool.
 */
export async function upsertRecord(db: Kysely<PgTables>, record: MemoryRecord): Promise<void> {
  await upsertRecordStatement(record).execute(db);
}

/** The statement of upsertRecord, to run on its own or inside a larger one (a CTE). */
export function upsertRecordStatement(record: MemoryRecord): RawBuilder<unknown> {
  const row = pgRowFromRecord(record);
  const values = RECORD_COLUMNS.map((c) => sql`${row[c]}`);
  return sql`
    INSERT INTO memory_records (${sql.join(RECORD_COLUMNS.map((c) => sql.ref(c)))}, search, questions_search)
    VALUES (${sql.join(values)}, ${searchVector(record)}, ${questionsVector(record)})
    ON CONFLICT (record_id) DO UPDATE SET
      ${sql.join(RECORD_COLUMNS.filter((c) => c !== 'record_id').map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`))},
      search = EXCLUDED.search, questions_search = EXCLUDED.questions_search`;
}

/** Inserts a record unless its id exists; false when it did (nothing is changed then). */
async function insertRecordIfAbsent(db: Kysely<PgTables>, record: MemoryRecord): Promise<boolean> {
  const row = pgRowFromRecord(record);
  const values = RECORD_COLUMNS.map((c) => sql`${row[c]}`);
  const { rows } = await sql`
    INSERT INTO memory_records (${sql.join(RECORD_COLUMNS.map((c) => sql.ref(c)))}, search, questions_search)
    VALUES (${sql.join(values)}, ${searchVector(record)}, ${questionsVector(record)})
    ON CONFLICT (record_id) DO NOTHING
    RETURNING record_id`.execute(db);
  return rows.length > 0;
}

/** How deep the cycle check follows a chain (chains are a few records long). */
const MAX_CHAIN_DEPTH = 10_000;

/** Memory records: one row per record_id, its search vector rebuilt on every write. */
export function pgRecords(ctx: PgContext): RecordStore {
  const { db } = ctx;

  return {
    async putRecord(record) {
      ctx.ensureOpen();
      await upsertRecord(db, record);
    },

    async insertRecord(record) {
      ctx.ensureOpen();
      return insertRecordIfAbsent(db, record);
    },

    async getRecord(recordId) {
      ctx.ensureOpen();
      if (hasNul(recordId)) return undefined;
      const row = await db
        .selectFrom('memory_records')
        .select(RECORD_COLUMNS)
        .where('record_id', '=', recordId)
        .executeTakeFirst();
      return row ? pgRecordFromRow(row) : undefined;
    },

    async getRecords(recordIds) {
      ctx.ensureOpen();
      const ids = recordIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const { rows } = await sql<PgRecordRow>`
        SELECT ${recordColumns('r')} FROM memory_records r
        WHERE r.record_id = ANY(${ids}::text[])`.execute(db);
      const byId = new Map(rows.map((row) => [row.record_id, pgRecordFromRow(row)]));
      return recordIds.flatMap((id) => byId.get(id) ?? []);
    },

    async updateRecord(recordId, patch) {
      ctx.ensureOpen();
      if (hasNul(recordId)) return undefined;
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('memory_records')
          .select(RECORD_COLUMNS)
          .where('record_id', '=', recordId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return undefined;
        const updated: MemoryRecord = { ...pgRecordFromRow(row), ...patch, updated_at: now() };
        if (updated.record_id !== recordId) {
          await trx.deleteFrom('memory_records').where('record_id', '=', recordId).execute();
        }
        await upsertRecord(trx, updated);
        return updated;
      });
    },

    async deleteRecord(recordId) {
      ctx.ensureOpen();
      if (hasNul(recordId)) return false;
      const result = await db
        .deleteFrom('memory_records')
        .where('record_id', '=', recordId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async supersedeRecord(link) {
      ctx.ensureOpen();
      if (hasNul(link.recordId) || hasNul(link.supersededBy)) return undefined;
      return db.transaction().execute(async (trx) => {
        // Both ends locked (in id order, so two links never deadlock), then the chain from
        // the newer one read: no other link can close a cycle meanwhile.
        const ends = await trx
          .selectFrom('memory_records')
          .select(['record_id', 'namespace'])
          .where('record_id', 'in', [link.recordId, link.supersededBy])
          .orderBy('record_id')
          .forUpdate()
          .execute();
        const older = ends.find((row) => row.record_id === link.recordId);
        const newer = ends.find((row) => row.record_id === link.supersededBy);
        if (!older || !newer) return undefined;
        const { rows } = await sql<{ record_id: string; superseded_by: string | null }>`
          WITH RECURSIVE chain(record_id, superseded_by, depth) AS (
            SELECT record_id, superseded_by, 0 FROM memory_records WHERE record_id = ${newer.record_id}
            UNION ALL
            SELECT r.record_id, r.superseded_by, c.depth + 1
            FROM memory_records r JOIN chain c ON r.record_id = c.superseded_by
            WHERE c.depth < ${MAX_CHAIN_DEPTH}
          )
          SELECT record_id, superseded_by FROM chain`.execute(trx);
        const next = new Map(rows.map((row) => [row.record_id, row.superseded_by]));
        checkLink(
          older,
          newer,
          followChain(newer.record_id, (id) => next.get(id)),
        );
        await trx
          .updateTable('memory_records')
          .set({
            superseded_by: link.supersededBy,
            superseded_at: withoutNul(link.at ?? now()),
            superseded_reason: link.reason === undefined ? null : withoutNul(link.reason),
          })
          .where('record_id', '=', link.recordId)
          .execute();
        const row = await trx
          .selectFrom('memory_records')
          .select(RECORD_COLUMNS)
          .where('record_id', '=', link.recordId)
          .executeTakeFirstOrThrow();
        return pgRecordFromRow(row);
      });
    },

    async clearSupersession(recordId) {
      ctx.ensureOpen();
      if (hasNul(recordId)) return undefined;
      const row = await db
        .updateTable('memory_records')
        .set({ superseded_by: null, superseded_at: null, superseded_reason: null })
        .where('record_id', '=', recordId)
        .returning(RECORD_COLUMNS)
        .executeTakeFirst();
      return row ? pgRecordFromRow(row) : undefined;
    },

    async listSuperseded(recordIds) {
      ctx.ensureOpen();
      const ids = recordIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const { rows } = await sql<PgRecordRow>`
        SELECT ${recordColumns('r')} FROM memory_records r
        WHERE r.superseded_by = ANY(${ids}::text[])
        ORDER BY r.created_at DESC, r.record_id DESC`.execute(db);
      return rows.map(pgRecordFromRow);
    },

    async listRecords(query) {
      ctx.ensureOpen();
      const keys = [query.namespace, query.strategy, query.since, query.until];
      if (keys.some((key) => key !== undefined && hasNul(key))) return { items: [], total: 0 };
      return listRecordPage(db, query);
    },
  };
}

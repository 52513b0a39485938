import { sql } from 'kysely';
import type { BufferStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { listPendingEntries, summariseParked, summarisePending } from '../portable.js';
import { hasNul, type PgContext } from './context.js';
import { upsertRecord } from './records.js';

/**
 * The pending buffer: events waiting for extraction, per namespace, oldest first; and the
 * parked entries set aside (in order) when a project's buffer is over its byte limit.
 */
export function pgBuffer(ctx: PgContext): Required<BufferStore> {
  const { db } = ctx;
  return {
    async listPending(namespace, options = {}) {
      ctx.ensureOpen();
      if (hasNul(namespace)) return [];
      return listPendingEntries(db, namespace, options.limit);
    },

    async pendingSummary() {
      ctx.ensureOpen();
      return summarisePending(db);
    },

    async removePending(namespace, eventIds) {
      ctx.ensureOpen();
      if (eventIds.length === 0 || hasNul(namespace)) return 0;
      const result = await sql`DELETE FROM pending
        WHERE namespace = ${namespace} AND event_id = ANY(${[...eventIds]}::text[])`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    async commitExtraction(commit) {
      ctx.ensureOpen();
      const ids = [...new Set(commit.eventIds)];
      await db.transaction().execute(async (trx) => {
        if (ids.length > 0) {
          const removed = await sql`DELETE FROM pending WHERE namespace = ${commit.namespace}
            AND event_id = ANY(${ids}::text[])`.execute(trx);
          // Conditional on the batch still being pending: throwing rolls back, so a batch
          // another collector committed first is never stored twice.
          if (Number(removed.numAffectedRows ?? 0) !== ids.length) {
            throw new StorageError(
              'stale_batch',
              `the batch's pending entries of ${commit.namespace} are gone: another run extracted them`,
            );
          }
        }
        for (const record of commit.records) await upsertRecord(trx, record);
      });
    },

    async parkPending(namespace, eventIds) {
      ctx.ensureOpen();
      if (eventIds.length === 0 || hasNul(namespace)) return 0;
      // One statement: an entry leaves the buffer exactly when it is parked.
      const { rows } = await sql<{ event_id: string }>`
        WITH moved AS (
          DELETE FROM pending WHERE namespace = ${namespace}
            AND event_id = ANY(${[...eventIds]}::text[])
          RETURNING namespace, event_id, seq, bytes, appended_at
        )
        INSERT INTO parked (namespace, event_id, seq, bytes, appended_at)
          SELECT namespace, event_id, seq, bytes, appended_at FROM moved
          ON CONFLICT DO NOTHING RETURNING event_id`.execute(db);
      return rows.length;
    },

    async requeueParked(namespace, maxPendingBytes) {
      ctx.ensureOpen();
      if (hasNul(namespace)) return 0;
      return db.transaction().execute(async (trx) => {
        // One re-queue of a project at a time, over every collector sharing the database:
        // each counts the pending bytes the other one added.
        await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ' parked ' || ${namespace}))`.execute(
          trx,
        );
        const { rows: sum } = await sql<{ bytes: string }>`
          SELECT coalesce(sum(bytes), 0) AS bytes FROM pending
          WHERE namespace = ${namespace}`.execute(trx);
        let bytes = Number(sum[0]?.bytes ?? 0);
        let moved = 0;
        for (;;) {
          const rows = await trx
            .selectFrom('parked')
            .select(['event_id', 'bytes'])
            .where('namespace', '=', namespace)
            .orderBy('seq')
            .limit(500)
            .execute();
          const take: string[] = [];
          for (const row of rows) {
            // At least one entry moves into an empty buffer, however large.
            if (bytes > 0 && bytes + row.bytes > maxPendingBytes) break;
            take.push(row.event_id);
            bytes += row.bytes;
          }
          if (take.length > 0) {
            await sql`
              WITH back AS (
                DELETE FROM parked WHERE namespace = ${namespace}
                  AND event_id = ANY(${take}::text[])
                RETURNING namespace, event_id, seq, bytes, appended_at
              )
              INSERT INTO pending (namespace, event_id, seq, bytes, appended_at)
                SELECT namespace, event_id, seq, bytes, appended_at FROM back
                ON CONFLICT DO NOTHING`.execute(trx);
            moved += take.length;
          }
          if (take.length < rows.length || rows.length === 0) return moved;
        }
      });
    },

    async parkedSummary() {
      ctx.ensureOpen();
      return summariseParked(db);
    },
  };
}

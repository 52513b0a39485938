import { sql } from 'kysely';
import type { StorageBackend } from '../backend.js';
import { StorageError } from '../errors.js';
import { hasNul, type PgContext } from './context.js';
import { upsertRecord } from './records.js';

export type BufferMethods = Pick<
  StorageBackend,
  'listPending' | 'pendingSummary' | 'removePending' | 'commitExtraction'
>;

/** The pending buffer: events waiting for extraction, per namespace, oldest first. */
export function pgBuffer(ctx: PgContext): BufferMethods {
  const { db } = ctx;
  return {
    async listPending(namespace, options = {}) {
      ctx.ensureOpen();
      if (hasNul(namespace)) return [];
      const rows = await db
        .selectFrom('pending')
        .select(['namespace', 'event_id', 'bytes', 'appended_at'])
        .where('namespace', '=', namespace)
        .orderBy('seq')
        .limit(options.limit ?? 1_000_000)
        .execute();
      return rows.map((row) => ({
        namespace: row.namespace,
        eventId: row.event_id,
        bytes: row.bytes,
        appendedAt: row.appended_at,
      }));
    },

    async pendingSummary() {
      ctx.ensureOpen();
      const rows = await db
        .selectFrom('pending')
        .select((eb) => [
          'namespace',
          eb.fn.countAll<string>().as('count'),
          eb.fn.sum<string>('bytes').as('bytes'),
          eb.fn.min<string>('appended_at').as('oldest'),
          eb.fn.max<string>('appended_at').as('newest'),
        ])
        .groupBy('namespace')
        .orderBy('namespace')
        .execute();
      return rows.map((row) => ({
        namespace: row.namespace,
        count: Number(row.count),
        bytes: Number(row.bytes),
        oldestAt: row.oldest,
        newestAt: row.newest,
      }));
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
  };
}

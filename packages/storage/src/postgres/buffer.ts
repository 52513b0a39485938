import { sql } from 'kysely';
import type { StorageBackend } from '../backend.js';
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
      await db.transaction().execute(async (trx) => {
        for (const record of commit.records) await upsertRecord(trx, record);
        if (commit.eventIds.length > 0) {
          await sql`DELETE FROM pending WHERE namespace = ${commit.namespace}
            AND event_id = ANY(${[...commit.eventIds]}::text[])`.execute(trx);
        }
      });
    },
  };
}

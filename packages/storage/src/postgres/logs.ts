import type { ExtractionLogEntry, StorageBackend } from '../backend.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';

export type LogMethods = Pick<
  StorageBackend,
  'logRetrieval' | 'listRetrievals' | 'logExtraction' | 'listExtractions'
>;

/** Retrieval and extraction logs (the viewer and /metrics read them), newest first. */
export function pgLogs(ctx: PgContext): LogMethods {
  const { db } = ctx;
  return {
    async logRetrieval(entry) {
      ctx.ensureOpen();
      await db
        .insertInto('retrieval_log')
        .values({
          namespace: withoutNul(entry.namespace),
          session_id: entry.sessionId === undefined ? null : withoutNul(entry.sessionId),
          event_id: entry.eventId === undefined ? null : withoutNul(entry.eventId),
          query: withoutNul(entry.query.slice(0, 4096)),
          record_ids: JSON.stringify(entry.recordIds),
          scores: JSON.stringify(entry.scores),
          latency_ms: entry.latencyMs,
          timed_out: entry.timedOut,
          budget_cut: entry.budgetCut,
          error: entry.error === undefined ? null : withoutNul(entry.error),
          created_at: now(),
        })
        .execute();
    },

    async listRetrievals(query) {
      ctx.ensureOpen();
      if ([query.namespace, query.sessionId].some((key) => key !== undefined && hasNul(key))) {
        return [];
      }
      let q = db.selectFrom('retrieval_log').selectAll();
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      if (query.sessionId !== undefined) q = q.where('session_id', '=', query.sessionId);
      if (query.afterId !== undefined) q = q.where('id', '>', String(Math.trunc(query.afterId)));
      // By time, when bounded by time: the created_at index then reads only that range.
      if (query.since !== undefined) {
        q = q.where('created_at', '>=', query.since).orderBy('created_at', 'desc');
      }
      const rows = await q.orderBy('id', 'desc').limit(query.limit).execute();
      return rows.map((row) => ({
        id: Number(row.id),
        namespace: row.namespace,
        ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
        ...(row.event_id !== null ? { eventId: row.event_id } : {}),
        query: row.query,
        recordIds: JSON.parse(row.record_ids) as string[],
        scores: JSON.parse(row.scores) as number[],
        latencyMs: row.latency_ms,
        timedOut: row.timed_out,
        budgetCut: row.budget_cut,
        ...(row.error !== null ? { error: row.error } : {}),
        createdAt: row.created_at,
      }));
    },

    async logExtraction(entry) {
      ctx.ensureOpen();
      await db
        .insertInto('extraction_log')
        .values({
          namespace: withoutNul(entry.namespace),
          extractor: withoutNul(entry.extractor),
          status: entry.status,
          batch_size: entry.batchSize,
          records: entry.records,
          attempts: entry.attempts,
          duration_ms: entry.durationMs,
          error: entry.error === undefined ? null : withoutNul(entry.error),
          started_at: withoutNul(entry.startedAt),
        })
        .execute();
    },

    async listExtractions(query) {
      ctx.ensureOpen();
      if (query.namespace !== undefined && hasNul(query.namespace)) return [];
      let q = db.selectFrom('extraction_log').selectAll();
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      if (query.afterId !== undefined) q = q.where('id', '>', String(Math.trunc(query.afterId)));
      const rows = await q.orderBy('id', 'desc').limit(query.limit).execute();
      return rows.map((row) => ({
        id: Number(row.id),
        namespace: row.namespace,
        extractor: row.extractor,
        status: row.status as ExtractionLogEntry['status'],
        batchSize: row.batch_size,
        records: row.records,
        attempts: row.attempts,
        durationMs: row.duration_ms,
        ...(row.error !== null ? { error: row.error } : {}),
        startedAt: row.started_at,
      }));
    },
  };
}

import type { LogStore } from '../backend.js';
import { listExtractionEntries, listRetrievalEntries } from '../portable.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';

/** Retrieval and extraction logs (the viewer and /metrics read them), newest first. */
export function pgLogs(ctx: PgContext): LogStore {
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
      return listRetrievalEntries(db, query);
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
      return listExtractionEntries(db, query);
    },
  };
}

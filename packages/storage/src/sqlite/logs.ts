import type { LogStore } from '../backend.js';
import { listExtractionEntries, listRetrievalEntries } from '../portable.js';
import { now, type SqliteContext } from './context.js';

/** Retrieval and extraction logs (the viewer and /metrics read them), newest first. */
export function sqliteLogs(ctx: SqliteContext): LogStore {
  const { db, w, writes } = ctx;
  return {
    async logRetrieval(entry) {
      ctx.ensureOpen();
      const row = {
        namespace: entry.namespace,
        session_id: entry.sessionId ?? null,
        event_id: entry.eventId ?? null,
        query: entry.query.slice(0, 4096),
        record_ids: JSON.stringify(entry.recordIds),
        scores: JSON.stringify(entry.scores),
        latency_ms: entry.latencyMs,
        timed_out: entry.timedOut ? 1 : 0,
        budget_cut: entry.budgetCut ? 1 : 0,
        error: entry.error ?? null,
        created_at: now(),
      };
      await writes.enqueue(() => w.insertRetrieval.run(row));
    },

    async listRetrievals(query) {
      ctx.ensureOpen();
      return listRetrievalEntries(db, query, (compiled) => ctx.statements.all(compiled));
    },

    async logExtraction(entry) {
      ctx.ensureOpen();
      const row = {
        namespace: entry.namespace,
        extractor: entry.extractor,
        status: entry.status,
        batch_size: entry.batchSize,
        records: entry.records,
        attempts: entry.attempts,
        duration_ms: entry.durationMs,
        error: entry.error ?? null,
        started_at: entry.startedAt,
      };
      await writes.enqueue(() => w.insertExtraction.run(row));
    },

    async listExtractions(query) {
      ctx.ensureOpen();
      return listExtractionEntries(db, query);
    },
  };
}

import type { LogStore } from '../backend.js';
import { listExtractionEntries, listRetrievalEntries, retrievalEntryOfRow } from '../portable.js';
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
      const { namespace, sessionId } = query;
      if (
        namespace === undefined ||
        sessionId === undefined ||
        query.afterId !== undefined ||
        query.since !== undefined
      ) {
        return listRetrievalEntries(db, query);
      }
      // A session's entries (retrieval reads them for every session it has not seen yet):
      // a prepared statement, as listRetrievalEntries would ask it.
      const rows = ctx.statements
        .prepare(
          'SELECT * FROM retrieval_log WHERE namespace = ? AND session_id = ? ORDER BY id DESC LIMIT ?',
        )
        .all(namespace, sessionId, query.limit) as Array<Parameters<typeof retrievalEntryOfRow>[0]>;
      return rows.map(retrievalEntryOfRow);
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

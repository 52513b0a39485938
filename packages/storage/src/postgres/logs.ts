import { sql } from 'kysely';
import type { LogStore } from '../backend.js';
import { listExtractionEntries, listRetrievalEntries } from '../portable.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';

/** Retrieval and extraction logs (the viewer and /metrics read them), newest first. */
export function pgLogs(ctx: PgContext): LogStore {
  const { db } = ctx;
  return {
    async logRetrieval(entry) {
      ctx.ensureOpen();
      // Without waiting for the WAL flush (synchronous_commit off for this statement's
      // commit): a crash can lose the last log lines, nothing else. Every prompt writes
      // one, and a commit that waits for its flush holds a pool connection the next
      // prompts' reads were queueing for (250 developers: most of a retrieval's time).
      await sql`
        INSERT INTO retrieval_log (namespace, session_id, event_id, query, record_ids, scores,
          latency_ms, timed_out, budget_cut, error, created_at)
        SELECT ${withoutNul(entry.namespace)}::text,
          ${entry.sessionId === undefined ? null : withoutNul(entry.sessionId)}::text,
          ${entry.eventId === undefined ? null : withoutNul(entry.eventId)}::text,
          ${withoutNul(entry.query.slice(0, 4096))}::text,
          ${JSON.stringify(entry.recordIds)}::text, ${JSON.stringify(entry.scores)}::text,
          ${entry.latencyMs}::float8, ${entry.timedOut}::bool, ${entry.budgetCut}::bool,
          ${entry.error === undefined ? null : withoutNul(entry.error)}::text, ${now()}::text
        FROM (SELECT set_config('synchronous_commit', 'off', true)) AS unflushed`.execute(db);
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

import { type Kysely, sql } from 'kysely';
import type { LogStore, RetrievalLogInput } from '../backend.js';
import { listExtractionEntries, listRetrievalEntries } from '../portable.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';
import type { PgTables } from './tables.js';

/** Retrieval and extraction logs (the viewer and /metrics read them), newest first. */
export function pgLogs(ctx: PgContext): LogStore {
  const { db } = ctx;
  const logRetrieval = retrievalLines(db);
  return {
    async logRetrieval(entry) {
      ctx.ensureOpen();
      await logRetrieval(entry);
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

/** Most log lines in one statement (11 parameters each). */
const MAX_LINES = 200;

/**
 * Retrieval log lines, group-committed: every prompt writes one, each a round trip on the
 * shared pool, so lines that arrive while a statement is in flight wait and go together in
 * the next (one statement at a time; under load, when statements are slow, more lines share
 * one). Each line's promise settles when its statement does. Without waiting for the WAL
 * flush (synchronous_commit off for the statement's commit): a crash can lose the last log
 * lines, nothing else; a commit that waited for its flush held a pool connection the next
 * prompts' reads were queueing for (250 developers: most of a retrieval's time).
 */
function retrievalLines(db: Kysely<PgTables>): (entry: RetrievalLogInput) => Promise<void> {
  let queue: Array<{ entry: RetrievalLogInput; done: (error?: unknown) => void }> = [];
  let writing = false;
  const write = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_LINES);
      queue = queue.slice(batch.length);
      const at = now();
      const rows = batch.map(
        ({ entry }) => sql`(${withoutNul(entry.namespace)}::text,
          ${entry.sessionId === undefined ? null : withoutNul(entry.sessionId)}::text,
          ${entry.eventId === undefined ? null : withoutNul(entry.eventId)}::text,
          ${withoutNul(entry.query.slice(0, 4096))}::text,
          ${JSON.stringify(entry.recordIds)}::text, ${JSON.stringify(entry.scores)}::text,
          ${entry.latencyMs}::float8, ${entry.timedOut}::bool, ${entry.budgetCut}::bool,
          ${entry.error === undefined ? null : withoutNul(entry.error)}::text, ${at}::text)`,
      );
      try {
        await sql`
          INSERT INTO retrieval_log (namespace, session_id, event_id, query, record_ids, scores,
            latency_ms, timed_out, budget_cut, error, created_at)
          SELECT line.* FROM (VALUES ${sql.join(rows)}) AS line,
            (SELECT set_config('synchronous_commit', 'off', true)) AS unflushed`.execute(db);
        for (const line of batch) line.done();
      } catch (error) {
        for (const line of batch) line.done(error);
      }
    }
    writing = false;
  };
  return (entry) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ entry, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!writing) void write();
    });
}

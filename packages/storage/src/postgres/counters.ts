import { sql } from 'kysely';
import type { PgContext } from './context.js';

/** Compact once this many events were stored through this backend since the last time. */
const EVERY_EVENTS = 2_000;

/**
 * And this often whatever was written (record writes, other collectors' writes): a pass
 * over compact tables only reads them.
 */
const EVERY_MS = 30_000;

export interface PgCounterCompactor {
  /** Tells the compactor events were stored, maybe starting a compaction. */
  written(events: number): void;
  /**
   * Folds every counter key's delta rows into one row (keys summing to zero go). Returns
   * false when another backend was compacting (this one skipped).
   */
  compact(): Promise<boolean>;
  /** Stops the timer and resolves once no compaction of this backend runs (close awaits it). */
  stop(): Promise<void>;
}

/**
 * The counter tables hold deltas (migration 0008): writers only INSERT, so no two writers
 * share a row lock, and reads sum a key's rows. Left alone the rows grow with every
 * write statement; this folds them back. Each table is folded by one statement that
 * deletes a key's rows and inserts their sum (`DELETE … RETURNING` feeding an `INSERT`):
 * rows committed by writers after the statement's snapshot are neither deleted nor
 * summed, so they stay as deltas and no change is lost or counted twice, and readers see
 * either the rows or their sum (one commit). Only keys with more than one row are
 * touched, so an idle database is not rewritten. One backend compacts at a time (a
 * transaction-scoped advisory lock; the others skip), which is a courtesy, not needed
 * for exactness: a second compactor that waited on a deleted row skips it.
 */
export function pgCounterCompactor(ctx: PgContext): PgCounterCompactor {
  const { db } = ctx;
  let events = 0;
  let running: Promise<boolean> | undefined;
  let stopped = false;

  async function run(): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ ok: boolean }>`
        SELECT pg_try_advisory_xact_lock(hashtext('kiro-learn counters ' || current_schema())) AS ok`.execute(
        trx,
      );
      if (rows[0]?.ok !== true) return false;
      await sql`
        WITH keys AS (
          SELECT namespace FROM namespace_counts GROUP BY namespace HAVING count(*) > 1
        ), gone AS (
          DELETE FROM namespace_counts c USING keys WHERE c.namespace = keys.namespace
          RETURNING c.namespace, c.events, c.memories, c.last_event_at
        )
        INSERT INTO namespace_counts (namespace, events, memories, last_event_at)
        SELECT namespace, sum(events), sum(memories), max(last_event_at) FROM gone
        GROUP BY namespace HAVING sum(events) <> 0 OR sum(memories) <> 0`.execute(trx);
      await sql`
        WITH keys AS (
          SELECT namespace, kind FROM kind_counts GROUP BY namespace, kind HAVING count(*) > 1
        ), gone AS (
          DELETE FROM kind_counts c USING keys
          WHERE c.namespace = keys.namespace AND c.kind = keys.kind
          RETURNING c.namespace, c.kind, c.n
        )
        INSERT INTO kind_counts (namespace, kind, n)
        SELECT namespace, kind, sum(n) FROM gone GROUP BY namespace, kind HAVING sum(n) <> 0`.execute(
        trx,
      );
      await sql`
        WITH keys AS (
          SELECT namespace, observation_type FROM type_counts
          GROUP BY namespace, observation_type HAVING count(*) > 1
        ), gone AS (
          DELETE FROM type_counts c USING keys
          WHERE c.namespace = keys.namespace AND c.observation_type = keys.observation_type
          RETURNING c.namespace, c.observation_type, c.n
        )
        INSERT INTO type_counts (namespace, observation_type, n)
        SELECT namespace, observation_type, sum(n) FROM gone
        GROUP BY namespace, observation_type HAVING sum(n) <> 0`.execute(trx);
      // A key left with one row that sums to nothing (a namespace forgotten whole).
      await sql`DELETE FROM namespace_counts WHERE events = 0 AND memories = 0`.execute(trx);
      await sql`DELETE FROM kind_counts WHERE n = 0`.execute(trx);
      await sql`DELETE FROM type_counts WHERE n = 0`.execute(trx);
      return true;
    });
  }

  function compact(): Promise<boolean> {
    if (running) return running.then(() => compact());
    events = 0;
    running = run().finally(() => {
      running = undefined;
    });
    return running;
  }

  function background(): void {
    if (stopped || running) return;
    // A failed compaction (database restarting) is only a missed fold: the next one does it.
    compact().catch(() => undefined);
  }

  const timer = setInterval(background, EVERY_MS);
  timer.unref();

  return {
    written(n) {
      events += n;
      if (events >= EVERY_EVENTS) background();
    },
    compact() {
      ctx.ensureOpen();
      return compact();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

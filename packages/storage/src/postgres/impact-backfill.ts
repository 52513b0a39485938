import { type Kysely, sql } from 'kysely';
import type { PgTables } from './tables.js';

/**
 * Indexes in the background the records stored before migration 0014 (queued in
 * `impact_queue` by 0017), so that the upgrade itself only creates the tables and the
 * trigger new writes need: building every record's postings in the migration took 165 s
 * at 100,000 records, with every collector opening the database waiting.
 *
 * A batch is one short transaction: it takes the next queued records (in record_id order,
 * after the last batch's: the queue's head is deleted rows until vacuum) whose queue row
 * nobody else holds (SKIP LOCKED: a second collector takes the next batch), holds those
 * records FOR SHARE, skipping one being written right now (it stays queued for the next
 * pass), so that a write of one waits for the batch's commit and its trigger then
 * replaces the postings the batch wrote; writes the postings of every one that has none
 * yet (a write since 0014 gave it its postings through the trigger), and deletes their
 * queue rows. Nothing is redone after a restart: a record leaves the queue in the
 * transaction that indexed it. The backfill never waits for a row lock, so it cannot
 * deadlock with writers.
 *
 * Search answers through the impact lists only once the queue is empty (`ready`); until
 * then it ranks every matching record (the same answers, slower). The queue only shrinks
 * after 0017, so once seen empty it stays empty. The backend that saw it empty after its
 * own batches then vacuums the table: rows written one batch at a time are not yet in the
 * visibility map, so the lists' index-only reads would visit the heap until autovacuum
 * came (at 100,000 records: 1.9 s, searches' p50 22 → 11 ms).
 */

/** Options of the background backfill (openPostgresStorage's `impactBackfill`). */
export interface ImpactBackfillOptions {
  /** Records per transaction (default 100). */
  batch?: number;
  /**
   * Pause after a batch, as a share of the time the batch took (default 1: the backfill
   * holds a connection at most half the time).
   */
  pauseRatio?: number;
}

const DEFAULT_BATCH = 100;
/** How long to wait when every queued record was held by someone else, or after an error. */
const RETRY_MS = 1000;
/** How often a search asks whether the queue has emptied (while it has not). */
const READY_CHECK_MS = 1000;
/** A longer pause while requests wait for a connection of the pool. */
const BUSY_PAUSE_MS = 200;

/** What one batch did. */
export interface BackfillBatch {
  /** Records taken off the queue: indexed, found indexed, or gone. */
  indexed: number;
  /** The last queued record_id the batch looked at (the next batch's `after`); none: nothing past `after` was free. */
  last: string | undefined;
}

/**
 * Indexes up to `max` queued records whose record_id sorts after `after`, in one
 * transaction.
 */
export async function backfillImpacts(
  db: Kysely<PgTables>,
  max: number,
  after = '',
): Promise<BackfillBatch> {
  return db.transaction().execute(async (trx) => {
    // Two statements, not a join: a merge join read every record before the queue's head.
    const { rows: queued } = await sql<{ record_id: string }>`
      SELECT record_id FROM impact_queue WHERE record_id > ${after}
      ORDER BY record_id LIMIT ${max} FOR UPDATE SKIP LOCKED`.execute(trx);
    const last = queued.at(-1)?.record_id;
    if (last === undefined) return { indexed: 0, last };
    const queuedIds = queued.map((r) => r.record_id);
    const { rows: held } = await sql<{ record_id: string }>`
      SELECT record_id FROM memory_records WHERE record_id = ANY(${queuedIds}::text[])
      FOR SHARE SKIP LOCKED`.execute(trx);
    let gone = 0;
    if (held.length < queued.length) {
      // Held by a writer, or no longer there (a delete takes its queue row by trigger, so
      // only a record whose id changed): those leave the queue here.
      const result = await sql`
        DELETE FROM impact_queue q WHERE q.record_id = ANY(${queuedIds}::text[])
          AND NOT EXISTS (SELECT 1 FROM memory_records m WHERE m.record_id = q.record_id)`.execute(
        trx,
      );
      gone = Number(result.numAffectedRows ?? 0);
    }
    if (held.length === 0) return { indexed: gone, last };
    const ids = held.map((row) => row.record_id);
    // A new statement, so a new snapshot: it sees the postings of every write of these
    // records that committed before the rows were locked. One posting per record tells
    // whether the record has them all (the trigger writes them in one statement).
    await sql`
      WITH r AS MATERIALIZED (
        SELECT m.record_id, m.namespace, x.lexeme, x.impact, x.tf, x.q, x.len, x.qlen
        FROM memory_records m CROSS JOIN LATERAL impact_rows(m.search, m.questions_search) x
        WHERE m.record_id = ANY(${ids}::text[])
      ), ns AS MATERIALIZED (
        SELECT d.namespace, impact_namespace(d.namespace) AS id
        FROM (SELECT DISTINCT namespace FROM r) d
      ), indexed AS (
        SELECT f.record_id FROM (
          SELECT DISTINCT ON (r.record_id) r.* FROM r ORDER BY r.record_id, r.lexeme
        ) f JOIN ns ON ns.namespace = f.namespace
        WHERE EXISTS (SELECT 1 FROM impact_postings p
          WHERE p.lexeme = f.lexeme AND p.ns = ns.id
            AND p.impact BETWEEN f.impact * 0.99999::real AND f.impact * 1.00001::real
            AND p.record_id = f.record_id)
      )
      INSERT INTO impact_postings (lexeme, ns, impact, record_id, tf, q, len, qlen)
      SELECT r.lexeme, ns.id, r.impact, r.record_id, r.tf, r.q, r.len, r.qlen
      FROM r JOIN ns ON ns.namespace = r.namespace
      WHERE r.record_id NOT IN (SELECT record_id FROM indexed)`.execute(trx);
    await sql`DELETE FROM impact_queue WHERE record_id = ANY(${ids}::text[])`.execute(trx);
    return { indexed: ids.length + gone, last };
  });
}

/** The running backfill of one backend, and what search and status ask of it. */
export interface ImpactBackfill {
  /** Records still queued (0 once the queue was seen empty). */
  backlog(): Promise<number>;
  /** Whether search may answer through the impact lists (every record indexed). */
  ready(): boolean | Promise<boolean>;
  /** Ends the loop after the batch in flight. */
  stop(): Promise<void>;
}

/**
 * Starts indexing the queue in the background, unless `options` is false (this backend
 * then only watches the queue: another one indexes it). `busy`: whether requests are
 * waiting for a connection (the backfill pauses longer).
 */
export function startImpactBackfill(
  db: Kysely<PgTables>,
  searchDb: Kysely<PgTables>,
  options: ImpactBackfillOptions | false,
  busy: () => boolean,
): ImpactBackfill {
  let complete = false;
  let stopped = false;
  let checkedAt = 0;
  let checking: Promise<boolean> | undefined;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const queueEmpty = async (on: Kysely<PgTables>) => {
    const { rows } = await sql<{ empty: boolean }>`
      SELECT NOT EXISTS (SELECT 1 FROM impact_queue) AS empty`.execute(on);
    if (rows[0]?.empty === true) complete = true;
    return complete;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
      timer.unref();
    });

  async function loop(settings: ImpactBackfillOptions): Promise<void> {
    const batch = Math.max(1, Math.trunc(settings.batch ?? DEFAULT_BATCH));
    const pauseRatio = Math.max(0, settings.pauseRatio ?? 1);
    let after = '';
    // Records indexed since the pass began at the start of the queue, and in all.
    let pass = 0;
    let indexed = 0;
    while (!stopped && !complete) {
      const started = performance.now();
      let done: BackfillBatch;
      try {
        done = await backfillImpacts(db, batch, after);
      } catch {
        // The server restarting, a deadlock victim, the pool busy: the queue keeps them.
        await sleep(RETRY_MS);
        continue;
      }
      if (stopped) return;
      if (done.last === undefined) {
        // Past the end: from the start again for what was skipped (held by a writer or
        // another collector), unless nothing is left.
        const wrapped = after !== '';
        const idle = pass === 0;
        after = '';
        pass = 0;
        if (wrapped && !idle) continue;
        if (await queueEmpty(db).catch(() => false)) {
          if (indexed > 0) await vacuumPostings();
          return;
        }
        // Every record left is held by a writer or another collector for now.
        await sleep(RETRY_MS);
        continue;
      }
      after = done.last;
      pass += done.indexed;
      indexed += done.indexed;
      const pause = (performance.now() - started) * pauseRatio;
      await sleep(busy() ? Math.max(pause, BUSY_PAUSE_MS) : pause);
    }
  }

  /** VACUUM ANALYZE of the postings, cancelled by stop() (a table of millions of rows). */
  async function vacuumPostings(): Promise<void> {
    await db
      .connection()
      .execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(
          connection,
        );
        vacuuming = rows[0]?.pid;
        await sql`SET statement_timeout = 0`.execute(connection);
        try {
          if (!stopped)
            await sql`VACUUM (ANALYZE, SKIP_LOCKED) impact_postings`.execute(connection);
        } finally {
          vacuuming = undefined;
          await sql`RESET statement_timeout`.execute(connection);
        }
      })
      // Cancelled, or the server went: autovacuum will do it.
      .catch(() => undefined);
  }
  let vacuuming: number | undefined;

  const running = options === false ? undefined : loop(options);

  return {
    async backlog() {
      if (complete) return 0;
      const { rows } = await sql<{ n: string }>`
        SELECT count(*) AS n FROM impact_queue`.execute(db);
      const n = Number(rows[0]?.n ?? 0);
      if (n === 0) complete = true;
      return n;
    },
    ready() {
      if (complete) return true;
      if (Date.now() - checkedAt < READY_CHECK_MS) return false;
      checking ??= queueEmpty(searchDb)
        .catch(() => false)
        .finally(() => {
          checkedAt = Date.now();
          checking = undefined;
        });
      return checking;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      if (vacuuming !== undefined) {
        await sql`SELECT pg_cancel_backend(${vacuuming})`.execute(db).catch(() => undefined);
      }
      await running;
    },
  };
}

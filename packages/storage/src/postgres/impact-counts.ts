import { type Kysely, sql } from 'kysely';
import type { PgTables } from './tables.js';

/**
 * Folds the per-statement deltas of the lexemes' record counts (migration 0018:
 * impact_count_deltas, appended by the postings' triggers) into impact_counts, in the
 * background of every backend. One folder at a time per schema (a transaction-level
 * advisory lock, tried, never waited for): two folders would update the same common
 * lexemes' rows in different orders. Writers only append deltas, so they never wait on a
 * folder or on each other. A fold deletes the deltas it took and adds their sums in one
 * transaction: a search's snapshot sees a delta either unfolded or in the count, never
 * both, and its count (impacts.ts, `countOf`) stays exact.
 */

/** Deltas per fold; a full fold is followed by the next at once. */
const FOLD_ROWS = 20_000;
/** How often to look for deltas (a write's are read by search unfolded meanwhile). */
const FOLD_MS = 1000;

/**
 * Folds up to `max` deltas: the number folded, or undefined when another backend is
 * folding. A lexeme whose count reaches 0 loses its row (a forgotten record's words leave
 * the table). The fold never waits for a lock (NOWAIT; one folder at a time, and writers
 * only append), so it cannot take part in a deadlock: whatever locks these tables (a
 * truncate, VACUUM FULL) makes the fold fail instead, and the deltas wait for the next.
 */
export async function foldImpactCounts(
  db: Kysely<PgTables>,
  max = FOLD_ROWS,
): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ got: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtext('kiro-learn impact counts ' || current_schema())) AS got`.execute(
      trx,
    );
    if (rows[0]?.got !== true) return undefined;
    await sql`LOCK TABLE impact_count_deltas, impact_counts IN ROW EXCLUSIVE MODE NOWAIT`.execute(
      trx,
    );
    const { rows: folded } = await sql<{ n: string; zero: string[] | null }>`
      WITH taken AS (
        DELETE FROM impact_count_deltas
        WHERE ctid = ANY(ARRAY(SELECT ctid FROM impact_count_deltas LIMIT ${max}))
        RETURNING lexeme, n
      ), sums AS (
        SELECT lexeme, sum(n)::bigint AS n, count(*) AS rows FROM taken GROUP BY lexeme
      ), upserted AS (
        INSERT INTO impact_counts (lexeme, n) SELECT lexeme, n FROM sums ORDER BY lexeme
        ON CONFLICT (lexeme) DO UPDATE SET n = impact_counts.n + excluded.n
        RETURNING lexeme, n
      )
      SELECT (SELECT coalesce(sum(rows), 0) FROM sums) AS n,
        (SELECT array_agg(lexeme) FROM upserted WHERE n = 0) AS zero`.execute(trx);
    const zero = folded[0]?.zero ?? [];
    if (zero.length > 0) {
      await sql`DELETE FROM impact_counts WHERE lexeme = ANY(${zero}::text[]) AND n = 0`.execute(
        trx,
      );
    }
    return Number(folded[0]?.n ?? 0);
  });
}

/**
 * Folds every delta there is (forget, before it rewrites the tables: an unfolded delta
 * names a forgotten record's words); waits for another backend's fold to end.
 */
export async function foldAllImpactCounts(db: Kysely<PgTables>): Promise<void> {
  for (;;) {
    const folded = await foldImpactCounts(db);
    if (folded === 0) return;
    if (folded === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether any delta waits to be folded (one statement, no transaction). */
async function hasDeltas(db: Kysely<PgTables>): Promise<boolean> {
  const { rows } = await sql<{ some: boolean }>`
    SELECT EXISTS (SELECT 1 FROM impact_count_deltas) AS some`.execute(db);
  return rows[0]?.some === true;
}

/** Starts the folding loop; `stop` ends it after the fold in flight. */
export function startImpactCountFolder(db: Kysely<PgTables>): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
  async function loop() {
    while (!stopped) {
      // The server restarting or the pool busy: the deltas wait, search reads them unfolded.
      // An idle collector asks one question a second, not a fold's five round trips.
      const folded = (await hasDeltas(db).catch(() => false))
        ? await foldImpactCounts(db).catch(() => 0)
        : 0;
      if (stopped) return;
      if (folded === undefined || folded < FOLD_ROWS) await sleep(FOLD_MS);
    }
  }
  const running = loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}

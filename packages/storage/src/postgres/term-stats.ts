import { sql } from 'kysely';
import type { PgContext } from './context.js';

/** Below this many records every document frequency is counted exactly (cheap when small). */
export const DEFAULT_TERM_STATS_MIN_RECORDS = 10_000;

/** How long statistics read from pg_stats are reused before being read again. */
const REFRESH_MS = 30_000;

/** ANALYZE again once the table's size moved this far from what the last ANALYZE saw. */
const STALE_SHARE = 0.1;

/** The share of records holding each common lexeme, from ANALYZE's sample. */
export interface CommonLexemes {
  /** Lexeme → share of records containing it (0..1). */
  shares: ReadonlyMap<string, number>;
  /**
   * The smallest share listed: a lexeme not listed is (as of the last ANALYZE) in fewer
   * records than this, so counting it through the index stays cheap.
   */
  minShare: number;
}

export interface PgTermStats {
  /**
   * The common lexemes and their shares, or undefined when none are usable (too few
   * records to bother, or the table was never analysed: then callers count, and an
   * ANALYZE is started in the background).
   */
  common(totalDocs: number): Promise<CommonLexemes | undefined>;
  /** Resolves once no background ANALYZE of this backend is running (close awaits it). */
  idle(): Promise<void>;
}

/**
 * Cheap term statistics for search planning. Counting a common word's records through
 * the GIN index reads a heap row per match (a word in 20 % of 100k records: most of the
 * table, ~100 ms cold), which is exactly the scan the planner exists to avoid. ANALYZE
 * already samples the lexemes of `memory_records.search`: pg_stats' `most_common_elems`
 * lists about the 1,000 most common with the share of rows holding each. A listed word's
 * document frequency is its share times the record count, without touching the index; a
 * word not listed is rarer than the least common listed, so counting it is cheap.
 *
 * The statistics must exist and keep up: autovacuum may be off or lag behind a bulk
 * import, so when the table was never analysed or its size moved 10 % since, this backend
 * runs `ANALYZE memory_records` itself, in the background (a search never waits for it),
 * one collector at a time (a transaction-scoped advisory lock; the others skip), and
 * flushes the GIN index's pending list, which every search would otherwise scan.
 */
export function pgTermStats(ctx: PgContext, options: { minRecords: number }): PgTermStats {
  const { db } = ctx;
  let cached: { at: number; stats: CommonLexemes | undefined; analyzedRows: number } | undefined;
  let reading: Promise<void> | undefined;
  let analyzing: Promise<void> | undefined;

  async function read(): Promise<void> {
    const { rows } = await sql<{
      reltuples: number;
      elems: string[] | null;
      freqs: number[] | null;
    }>`
      SELECT c.reltuples, s.most_common_elems::text::text[] AS elems,
        s.most_common_elem_freqs AS freqs
      FROM pg_class c
      LEFT JOIN pg_stats s ON s.schemaname = current_schema()
        AND s.tablename = 'memory_records' AND s.attname = 'search'
      WHERE c.oid = 'memory_records'::regclass`.execute(db);
    const row = rows[0];
    const elems = row?.elems ?? [];
    const freqs = row?.freqs ?? [];
    let stats: CommonLexemes | undefined;
    // The frequencies list one share per element, then their minimum and maximum.
    if (elems.length > 0 && freqs.length >= elems.length) {
      const shares = new Map<string, number>();
      let minShare = 1;
      for (const [i, lexeme] of elems.entries()) {
        const share = Number(freqs[i]);
        shares.set(lexeme, share);
        minShare = Math.min(minShare, share);
      }
      stats = { shares, minShare };
    }
    cached = { at: Date.now(), stats, analyzedRows: Number(row?.reltuples ?? -1) };
  }

  function analyze(): void {
    if (analyzing) return;
    analyzing = db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ locked: boolean }>`
          SELECT pg_try_advisory_xact_lock(hashtext('kiro-learn analyze ' || current_schema())) AS locked`.execute(
          trx,
        );
        if (!rows[0]?.locked) return false;
        // ANALYZE samples a fixed number of rows (30,000 by default), so it takes about as
        // long at 10M records as at 100k; under load that can pass the request timeout.
        await sql`SET LOCAL statement_timeout = '5min'`.execute(trx);
        await sql`ANALYZE memory_records`.execute(trx);
        await sql`SELECT gin_clean_pending_list('memory_records_search'::regclass)`.execute(trx);
        await sql`SELECT gin_clean_pending_list('memory_records_questions_search'::regclass)`.execute(
          trx,
        );
        return true;
      })
      .then((done) => {
        // Read the new statistics (committed now) at the next search.
        if (done) cached = undefined;
      })
      // Best effort: a failed ANALYZE (no privilege, server restarting, closing) only
      // leaves searches counting; the next refresh tries again.
      .catch(() => undefined)
      .finally(() => {
        analyzing = undefined;
      });
  }

  /** Reads pg_stats (at most every REFRESH_MS) and starts an ANALYZE when they are stale. */
  async function refresh(totalDocs: number): Promise<void> {
    try {
      await read();
    } catch {
      // Counting still works: plan without statistics until the next refresh.
      cached = { at: Date.now(), stats: undefined, analyzedRows: -1 };
      return;
    }
    const analyzed = cached?.analyzedRows ?? -1;
    if (
      cached?.stats === undefined ||
      analyzed <= 0 ||
      Math.abs(totalDocs - analyzed) > analyzed * STALE_SHARE
    ) {
      analyze();
    }
  }

  return {
    async common(totalDocs) {
      if (totalDocs < options.minRecords) return undefined;
      if (!cached || Date.now() - cached.at > REFRESH_MS) {
        reading ??= refresh(totalDocs).finally(() => {
          reading = undefined;
        });
        await reading;
      }
      return cached?.stats;
    },

    async idle() {
      await analyzing;
    },
  };
}

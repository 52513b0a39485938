import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { NS } from '../../test/helpers.js';
import { openPostgresTemp } from '../../test/postgres.js';
import {
  expectSameRanking,
  OTHER,
  putRecords,
  randomRecord,
  words,
} from '../../test/random-records.js';
import { foldImpactCounts } from './impact-counts.js';
import { postingCounts } from './impacts.js';
import type { PostgresStorage } from './open.js';

/** Lexemes whose kept count (folded + unfolded deltas) differs from their postings counted. */
async function countDrift(storage: PostgresStorage): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH actual AS (SELECT lexeme, count(*) AS n FROM impact_postings GROUP BY lexeme),
    kept AS (
      SELECT lexeme, sum(n) AS n FROM (
        SELECT lexeme, n FROM impact_counts UNION ALL SELECT lexeme, n FROM impact_count_deltas
      ) x GROUP BY lexeme HAVING sum(n) <> 0)
    SELECT count(*) AS n FROM actual FULL JOIN kept USING (lexeme)
    WHERE actual.n IS DISTINCT FROM kept.n`.execute(storage.db);
  return Number(rows[0]!.n);
}

/** Through postingCounts (search's counts), every lexeme's count up to `cap`, against the postings. */
async function expectSearchCounts(storage: PostgresStorage, cap: number): Promise<void> {
  const { rows } = await sql<{ lexeme: string; n: string }>`
    SELECT lexeme, count(*) AS n FROM impact_postings GROUP BY lexeme ORDER BY lexeme`.execute(
    storage.db,
  );
  expect(rows.length).toBeGreaterThan(20);
  const counts = await postingCounts(
    async (_name, query) => (await query.execute(storage.db)).rows,
    rows.map((r) => r.lexeme),
    cap,
  );
  expect(counts).toEqual(rows.map((r) => Math.min(cap, Number(r.n))));
}

async function deltas(storage: PostgresStorage): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM impact_count_deltas`.execute(
    storage.db,
  );
  return Number(rows[0]!.n);
}

describe('PostgreSQL per-lexeme record counts', () => {
  it('stay exact through inserts, updates, deletes, forget and folds, and search answers as the full ranking', async () => {
    const storage = await openPostgresTemp();
    const full = await openPostgresTemp({ schema: storage.schema, impactSearch: false });
    const records = Array.from({ length: 240 }, (_, i) => randomRecord(i % 3 === 0 ? OTHER : NS));
    await putRecords(storage, records);
    expect(await countDrift(storage)).toBe(0);
    await expectSearchCounts(storage, 30);
    // Updates: new words for a fifth of the records.
    await putRecords(
      storage,
      records.filter((_, i) => i % 5 === 1).map((r) => ({ ...r, summary: words(12) })),
    );
    expect(await countDrift(storage)).toBe(0);
    // Deletes of several records in one statement (the postings trigger once per record).
    const gone = records.filter((_, i) => i % 7 === 2).map((r) => r.record_id);
    await sql`DELETE FROM memory_records WHERE record_id = ANY(${gone}::text[])`.execute(
      storage.db,
    );
    expect(await countDrift(storage)).toBe(0);
    // Everything folded: no delta left, the counts alone still exact.
    while ((await foldImpactCounts(storage.db, 50)) !== 0);
    expect(await deltas(storage)).toBe(0);
    expect(await countDrift(storage)).toBe(0);
    await expectSearchCounts(storage, 1_000_000);
    // Forget a project: its records' words leave the counts.
    expect((await storage.forget({ namespace: OTHER })).records).toBeGreaterThan(50);
    expect(await countDrift(storage)).toBe(0);
    await expectSearchCounts(storage, 25);
    await expectSameRanking(storage, full, 10, { title: 1, summary: 20, questions: 30 });
  });

  it('are built by the upgrade from the postings already there', async () => {
    const schema = freshSchema();
    const first = await openPostgresTemp({ schema });
    await putRecords(
      first,
      Array.from({ length: 150 }, () => randomRecord(NS)),
    );
    await first.close();
    // Back to before migration 0018, with more records written meanwhile.
    const old = await openPostgresTemp({ schema });
    for (const statement of [
      'DROP TRIGGER impact_postings_counts_ai ON impact_postings',
      'DROP TRIGGER impact_postings_counts_ad ON impact_postings',
      'DROP TABLE impact_counts, impact_count_deltas',
      'DROP FUNCTION impact_postings_added(), impact_postings_removed()',
      "DELETE FROM schema_migrations WHERE name >= '0018'",
    ]) {
      await sql.raw(statement).execute(old.db);
    }
    await putRecords(
      old,
      Array.from({ length: 50 }, () => randomRecord(NS)),
    );
    await old.close();
    const upgraded = await openPostgresTemp({ schema });
    expect(await countDrift(upgraded)).toBe(0);
    await expectSearchCounts(upgraded, 40);
  });
});

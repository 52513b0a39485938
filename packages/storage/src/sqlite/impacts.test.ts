import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { NS, onCleanup, record, tempDir } from '../../test/helpers.js';
import {
  expectSameAnswer,
  expectSameRanking,
  OTHER,
  RETRIEVAL_WEIGHTS,
  random,
  randomRecord,
  VOCABULARY,
  words,
} from '../../test/random-records.js';
import { openSqliteStorage, type SqliteStorage } from '../index.js';
import type { SearchHit } from '../stores/search.js';

/** The writer (impact table for every search) and a reader that never uses it. */
async function pair(
  maxPostings?: number,
  plan: { maxDocShare?: number } = {},
): Promise<{ fast: SqliteStorage; fts: SqliteStorage }> {
  const path = join(tempDir(), 'kiro-learn.db');
  const search = { search: { ...plan, ...(maxPostings === undefined ? {} : { maxPostings }) } };
  const fast = await openSqliteStorage({ path, impactMinPostings: 0, ...search });
  onCleanup(() => fast.close());
  const fts = await openSqliteStorage({
    path,
    impactMinPostings: Infinity,
    readOnly: true,
    ...search,
  });
  onCleanup(() => fts.close());
  return { fast, fts };
}

const scores = (hits: readonly SearchHit[]) => hits.map((hit) => hit.score);

/** The third weights the same-answer checks use. */
const ODD_WEIGHTS = { title: 1, summary: 20 };

const pending = async (s: SqliteStorage) =>
  (await sql<{ n: number }>`SELECT count(*) AS n FROM impact_queue`.execute(s.db)).rows[0]!.n;
const postings = async (s: SqliteStorage, rid?: number) =>
  (
    await sql<{ n: number }>`SELECT count(*) AS n FROM impact_postings WHERE ${
      rid === undefined ? sql`1` : sql`rid = ${rid}`
    }`.execute(s.db)
  ).rows[0]!.n;

describe('impact-ordered search', () => {
  it('ranks as FTS5 does: the same scores, the same records', async () => {
    const { fast, fts } = await pair();
    for (let i = 0; i < 300; i++) await fast.putRecord(randomRecord(i % 3 === 0 ? OTHER : NS));
    expect(await pending(fast)).toBe(0);
    await expectSameRanking(fast, fts, 25, ODD_WEIGHTS);
  });

  it('ranks as FTS5 does for one word in hundreds of records (the rest of its list read in one statement)', async () => {
    // Common words kept (no share limit), so a one-word search reads past its first page.
    const { fast, fts } = await pair(undefined, { maxDocShare: 1 });
    for (let i = 0; i < 600; i++) await fast.putRecord(randomRecord(i % 5 === 0 ? OTHER : NS));
    const common = VOCABULARY.slice(0, 6);
    const counts = await fts.searchRecords({ namespace: NS, query: common[0]!, limit: 100 });
    expect(counts.length).toBe(100);
    for (const query of common) {
      for (const [weights, limit] of [
        [RETRIEVAL_WEIGHTS, 40],
        [undefined, 10],
        [{ title: 1, summary: 20 }, 100],
        [RETRIEVAL_WEIGHTS, 1],
      ] as const) {
        await expectSameAnswer(fast, fts, query, limit, weights);
      }
    }
  });

  it('ranks as FTS5 does as shorter and longer records join and leave a word list', async () => {
    // The bound on an unread row leans on the list's shortest record, and matters where
    // lengths differ most from the reference average: short records at first, long ones
    // with the word many times, then the short ones gone.
    const { fast, fts } = await pair(undefined, { maxDocShare: 1 });
    const sized = (times: number, n: number) =>
      record({ title: words(1), summary: `${'wordz '.repeat(times)}${words(n)}` });
    const check = async () => {
      for (const [weights, limit] of [
        [RETRIEVAL_WEIGHTS, 40],
        [RETRIEVAL_WEIGHTS, 300],
        [undefined, 150],
        [RETRIEVAL_WEIGHTS, 1],
      ] as const) {
        await expectSameAnswer(fast, fts, 'wordz', limit, weights);
      }
    };
    const short = Array.from({ length: 300 }, () => sized(1, Math.floor(random() * 4)));
    for (const r of short) await fast.putRecord(r);
    await check();
    for (let i = 0; i < 300; i++) {
      await fast.putRecord(sized(1 + Math.floor(random() * 8), 20 + Math.floor(random() * 60)));
    }
    await check();
    for (const r of short) await fast.deleteRecord(r.record_id);
    await check();
  });

  it('stays true through edits, deletes and a forget', async () => {
    const { fast, fts } = await pair();
    const records = Array.from({ length: 200 }, () => randomRecord(NS));
    await Promise.all(records.map((r) => fast.putRecord(r)));
    for (const r of records.slice(0, 40)) {
      await fast.putRecord({ ...r, title: words(3), summary: words(12) });
    }
    await fast.putRecord({ ...records[40]!, namespace: OTHER });
    for (const r of records.slice(50, 70)) await fast.deleteRecord(r.record_id);
    const secret = record({ title: 'zqxsecretword rotation', summary: 'zqxsecretword' });
    await fast.putRecord(secret);
    await fast.forget({ record: secret.record_id });
    expect(await pending(fast)).toBe(0);
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM impact_postings WHERE term LIKE 'zqxsecret%'`.execute(fast.db);
    expect(rows[0]!.n).toBe(0);
    const { rows: lengths } = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM impact_lengths WHERE term LIKE 'zqxsecret%'`.execute(fast.db);
    expect(lengths[0]!.n).toBe(0);
    await expectSameRanking(fast, fts, 20, ODD_WEIGHTS);
    // A project forgotten as a whole leaves not even its name here.
    await fast.forget({ namespace: OTHER });
    const { rows: names } = await sql<{
      namespace: string;
    }>`SELECT namespace FROM impact_namespaces`.execute(fast.db);
    expect(names.map((n) => n.namespace)).toEqual([NS]);
  });

  it('is built for records stored before it (the backfill), and searched once complete', async () => {
    const path = join(tempDir(), 'kiro-learn.db');
    const first = await openSqliteStorage({ path });
    await Promise.all(Array.from({ length: 150 }, () => first.putRecord(randomRecord(NS))));
    // As the migration leaves an existing database: every record queued, no rows.
    await sql`DELETE FROM impact_postings`.execute(first.db);
    await sql`INSERT OR IGNORE INTO impact_queue (rid) SELECT rid FROM memory_records`.execute(
      first.db,
    );
    await first.close();
    const fast = await openSqliteStorage({ path, impactMinPostings: 0 });
    onCleanup(() => fast.close());
    const fts = await openSqliteStorage({ path, impactMinPostings: Infinity, readOnly: true });
    onCleanup(() => fts.close());
    // Queued records: search is FTS5's until they are tokenised in the background.
    const query = { namespace: NS, query: words(3), limit: 10 };
    expect(scores(await fast.searchRecords(query))).toEqual(scores(await fts.searchRecords(query)));
    await expect.poll(() => pending(fast), { timeout: 10_000 }).toBe(0);
    expect(await postings(fast)).toBeGreaterThan(150);
    await expectSameRanking(fast, fts, 10, ODD_WEIGHTS);
  });

  it('keeps no rows for words past the postings budget, which no search uses', async () => {
    const { fast, fts } = await pair(40);
    for (let i = 0; i < 300; i++) await fast.putRecord(randomRecord(NS));
    expect(await pending(fast)).toBe(0);
    const { rows: stopped } = await sql<{
      term: string;
    }>`SELECT term FROM impact_stopped`.execute(fast.db);
    expect(stopped.length).toBeGreaterThan(0);
    for (const { term } of stopped) {
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM impact_postings WHERE term = ${term}`.execute(fast.db);
      expect(rows[0]!.n).toBe(0);
    }
    await expectSameRanking(fast, fts, 20, ODD_WEIGHTS);
  });

  it('keeps no rows of a deleted record, at once', async () => {
    const { fast } = await pair();
    const r = randomRecord(NS);
    await fast.putRecord(r);
    const { rows } = await sql<{
      rid: number;
    }>`SELECT rid FROM memory_records WHERE record_id = ${r.record_id}`.execute(fast.db);
    const rid = rows[0]!.rid;
    expect(await postings(fast, rid)).toBeGreaterThan(0);
    await fast.deleteRecord(r.record_id);
    expect(await postings(fast, rid)).toBe(0);
  });
});

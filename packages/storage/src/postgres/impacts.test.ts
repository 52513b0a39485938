import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { NS, record } from '../../test/helpers.js';
import { impactDrift as drift, openPostgresTemp } from '../../test/postgres.js';
import {
  expectSameAnswer,
  expectSameRanking,
  OTHER,
  putRecords,
  RETRIEVAL_WEIGHTS,
  randomRecord,
  VOCABULARY,
  words,
} from '../../test/random-records.js';
import { questionsRank, searchRank, widen } from './impacts.js';
import type { PostgresStorage } from './open.js';
import { questionsWeight, rankWeights } from './search.js';

/** The impact path and the full ranking, on one schema. */
async function pair(
  plan: { maxDocShare?: number } = {},
  schema = freshSchema(),
): Promise<{ fast: PostgresStorage; full: PostgresStorage }> {
  const fast = await openPostgresTemp({ schema, search: plan });
  const full = await openPostgresTemp({ schema, search: plan, impactSearch: false });
  return { fast, full };
}

/** The third weights the same-answer checks use: questions weigh most. */
const ODD_WEIGHTS = { title: 1, summary: 20, questions: 30 };

describe('PostgreSQL impact-ordered search', () => {
  it('ranks as the full ranking does: the same scores, the same records', async () => {
    const { fast, full } = await pair();
    for (let i = 0; i < 300; i++) await fast.putRecord(randomRecord(i % 3 === 0 ? OTHER : NS));
    await expectSameRanking(fast, full, 25, ODD_WEIGHTS);
  });

  it("computes PostgreSQL's ts_rank of every posting, and bounds it by the row's impact", async () => {
    const { fast } = await pair();
    for (let i = 0; i < 80; i++) await fast.putRecord(randomRecord(NS));
    for (const weights of [
      { title: 8, summary: 2, facts: 3, concepts: 5, files: 5, questions: 1 },
      RETRIEVAL_WEIGHTS,
      { title: 1, summary: 20, facts: 3, concepts: 0, files: 5, questions: 30 },
    ]) {
      const labels = rankWeights(weights);
      const asked = questionsWeight(weights);
      const { rows } = await sql<{
        impact: number;
        tf: number;
        q: number;
        len: number;
        qlen: number;
        rank: number;
        asked_rank: number;
      }>`
        SELECT p.impact, p.tf, p.q, p.len, p.qlen,
          ts_rank(${labels}::float4[], m.search, quote_literal(p.lexeme)::tsquery, 1) AS rank,
          ts_rank('{1,1,1,1}'::float4[], m.questions_search, quote_literal(p.lexeme)::tsquery, 1) AS asked_rank
        FROM impact_postings p JOIN memory_records m ON m.record_id = p.record_id`.execute(fast.db);
      expect(rows.length).toBeGreaterThan(500);
      for (const row of rows) {
        const rank = searchRank(row.tf, row.len, labels);
        const askedRank = questionsRank(row.q, row.qlen);
        expect(Math.abs(rank - row.rank)).toBeLessThanOrEqual(row.rank * 1e-6 + 1e-12);
        expect(Math.abs(askedRank - row.asked_rank)).toBeLessThanOrEqual(
          row.asked_rank * 1e-6 + 1e-12,
        );
        expect(rank + asked * askedRank).toBeLessThanOrEqual(row.impact * widen(labels, asked));
      }
    }
  });

  it('ranks the same for common words in hundreds of records (lists read past their first page)', async () => {
    const { fast, full } = await pair({ maxDocShare: 1 });
    await putRecords(
      fast,
      Array.from({ length: 600 }, (_, i) => randomRecord(i % 5 === 0 ? OTHER : NS)),
    );
    const common = VOCABULARY.slice(0, 6);
    expect(await full.searchRecords({ namespace: NS, query: common[0]!, limit: 100 })).toHaveLength(
      100,
    );
    for (const query of [...common, common.join(' ')]) {
      for (const [weights, limit] of [
        [RETRIEVAL_WEIGHTS, 40],
        [undefined, 10],
        [{ title: 1, summary: 20 }, 100],
        [RETRIEVAL_WEIGHTS, 1],
      ] as const) {
        await expectSameAnswer(fast, full, query, limit, weights);
      }
    }
  });

  it('stays true through edits, deletes and a forget, leaving nothing of a forgotten record', async () => {
    const { fast, full } = await pair();
    const records = Array.from({ length: 200 }, () => randomRecord(NS));
    await putRecords(fast, records);
    for (const r of records.slice(0, 40)) {
      await fast.putRecord({ ...r, title: words(3), summary: words(12) });
    }
    await fast.putRecord({ ...records[40]!, namespace: OTHER });
    await fast.updateRecord(records[41]!.record_id, { questions: [words(5)] });
    await fast.supersedeRecord({
      recordId: records[42]!.record_id,
      supersededBy: records[43]!.record_id,
    });
    for (const r of records.slice(50, 70)) await fast.deleteRecord(r.record_id);
    const secret = record({ title: 'zqxsecretword rotation', summary: 'zqxsecretword' });
    await fast.putRecord(secret);
    await fast.forget({ record: secret.record_id });
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM impact_postings
      WHERE lexeme LIKE 'zqxsecret%' OR record_id = ${secret.record_id}`.execute(fast.db);
    expect(Number(rows[0]!.n)).toBe(0);
    expect(await drift(fast)).toBe(0);
    await expectSameRanking(fast, full, 15, ODD_WEIGHTS);
    await fast.forget({ namespace: OTHER });
    expect(await drift(fast)).toBe(0);
  });

  it('deletes the rows of a record whose impacts another server would compute a little apart', async () => {
    const { fast } = await pair();
    const kept = randomRecord(NS);
    const gone = record({ title: 'zqxrestored secret', summary: words(20) });
    await fast.putRecord(kept);
    await fast.putRecord(gone);
    // As if written by a server whose arithmetic differs in the last bits, and by one whose
    // differs more: both are found.
    await sql`UPDATE impact_postings SET impact = impact * 1.000001::real
      WHERE record_id = ${gone.record_id} AND lexeme <> 'zqxrestor'`.execute(fast.db);
    await sql`UPDATE impact_postings SET impact = impact * 1.01::real
      WHERE record_id = ${gone.record_id} AND lexeme = 'zqxrestor'`.execute(fast.db);
    await fast.forget({ record: gone.record_id });
    const { rows } = await sql<{ record_id: string }>`
      SELECT DISTINCT record_id FROM impact_postings`.execute(fast.db);
    expect(rows.map((r) => r.record_id)).toEqual([kept.record_id]);
  });
});

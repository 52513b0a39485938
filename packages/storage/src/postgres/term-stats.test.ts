import { freshSchema } from '@kiro-learn/test-postgres';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { NS, onCleanup, record } from '../../test/helpers.js';
import { openPostgresStorage } from './open.js';

/** pg_class.reltuples and whether pg_stats has lexeme statistics of `search`. */
async function statistics(schema: string) {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    const { rows } = await client.query<{ reltuples: number; lexemes: number | null }>(
      `SELECT c.reltuples, array_length(s.most_common_elems::text::text[], 1) AS lexemes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname
         AND s.attname = 'search'
       WHERE n.nspname = $1 AND c.relname = 'memory_records'`,
      [schema],
    );
    return { rows: Number(rows[0]?.reltuples), lexemes: rows[0]?.lexemes ?? 0 };
  } finally {
    await client.end();
  }
}

describe('PostgreSQL search statistics', () => {
  it('analyses a large enough table by itself and plans with its lexeme statistics', async () => {
    const schema = freshSchema();
    const open = async () => {
      const storage = await openPostgresStorage({
        url: inject('postgresUrl'),
        schema,
        termStatsMinRecords: 100,
      });
      onCleanup(() => storage.close());
      return storage;
    };
    const storage = await open();
    // Every record mentions the deploy; one of them also the zebra.
    for (let i = 0; i < 150; i++) {
      await storage.putRecord(
        record({
          title: i === 7 ? 'Zebra crossing of the deploy' : `Deploy step ${i}`,
          summary: 'The deploy ran.',
        }),
      );
    }
    const first = await storage.searchRecords({ namespace: NS, query: 'deploy zebra', limit: 5 });
    expect(first.map((h) => h.record.title)).toEqual(['Zebra crossing of the deploy']);
    // close() waits for the background ANALYZE the search started.
    await storage.close();
    const after = await statistics(schema);
    expect(after.rows).toBe(150);
    expect(after.lexemes).toBeGreaterThan(0);

    // With statistics, the common word is known to be in every record without counting
    // it: it is left out of the query, the rare word alone finds the record.
    const reopened = await open();
    const hits = await reopened.searchRecords({ namespace: NS, query: 'deploy zebra', limit: 5 });
    expect(hits.map((h) => h.record.title)).toEqual(['Zebra crossing of the deploy']);
    expect(hits[0]!.terms).toEqual(['zebra']);
  });
});

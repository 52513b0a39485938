import { HOSTILE_TEXTS } from '@kiro-learn/test-harness/records';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOOKALIKE_NAMESPACES, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

const titles = (hits: Array<{ record: { title: string } }>) => hits.map((h) => h.record.title);

export function searchConformance({ open }: BackendFactory): void {
  describe('search', () => {
    it('finds a record by a word that no record had when it was last searched for', async () => {
      const storage = await open();
      for (let i = 0; i < 40; i++) {
        await storage.putRecord(
          record({ title: `Ledger export note ${i}`, summary: 'CSV quoting.' }),
        );
      }
      expect(
        await storage.searchRecords({ namespace: NS, query: 'zqxwv ledger', limit: 5 }),
      ).not.toEqual([]);
      const fresh = record({
        title: 'The zqxwv flag breaks the ledger export',
        summary: 'Quote it.',
      });
      await storage.putRecord(fresh);
      const hits = await storage.searchRecords({ namespace: NS, query: 'zqxwv', limit: 5 });
      expect(hits.map((hit) => hit.record.record_id)).toEqual([fresh.record_id]);
    });

    it('stems: "migrations" finds a record about migrating', async () => {
      const storage = await open();
      await storage.putRecord(record({ title: 'Migrate users table to uuid keys' }));
      expect(
        titles(
          await storage.searchRecords({
            namespace: NS,
            query: 'how did the migrations go?',
            limit: 5,
          }),
        ),
      ).toEqual(['Migrate users table to uuid keys']);
    });

    it('ranks a title hit above a summary hit', async () => {
      const storage = await open();
      await storage.putRecord(
        record({
          title: 'Deploy notes',
          summary: 'The redis cache was flushed during the deploy.',
        }),
      );
      await storage.putRecord(
        record({
          title: 'Redis cache eviction policy',
          summary: 'Chose allkeys-lru for the session store.',
        }),
      );
      const hits = await storage.searchRecords({ namespace: NS, query: 'redis', limit: 5 });
      expect(titles(hits)).toEqual(['Redis cache eviction policy', 'Deploy notes']);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    });

    it('finds answers that live only in facts, concepts or files', async () => {
      const storage = await open();
      await storage.putRecord(
        record({ title: 'Fix A', facts: ['constructEvent needs the raw request body'] }),
      );
      await storage.putRecord(record({ title: 'Fix B', concepts: ['idempotency'] }));
      await storage.putRecord(
        record({ title: 'Fix C', files_touched: ['src/webhooks/stripe.ts'] }),
      );
      expect(
        titles(await storage.searchRecords({ namespace: NS, query: 'constructEvent', limit: 5 })),
      ).toEqual(['Fix A']);
      expect(
        titles(await storage.searchRecords({ namespace: NS, query: 'idempotency keys', limit: 5 })),
      ).toEqual(['Fix B']);
      expect(
        titles(
          await storage.searchRecords({
            namespace: NS,
            query: 'what changed in stripe.ts',
            limit: 5,
          }),
        ),
      ).toEqual(['Fix C']);
    });

    it('a prompt of only stop words searches nothing', async () => {
      const storage = await open();
      await storage.putRecord(record({ title: 'What is this about', summary: 'it is what it is' }));
      expect(
        await storage.searchRecords({ namespace: NS, query: 'what is it about?', limit: 5 }),
      ).toEqual([]);
    });

    it('keeps at most 32 terms, the rarest, and drops terms present in most records', async () => {
      const storage = await open();
      for (let i = 0; i < 80; i++) {
        await storage.putRecord(
          record({ title: `Common service note ${i}`, summary: `service detail n${i % 40}` }),
        );
      }
      await storage.putRecord(
        record({ title: 'Zanzibar authorization model', summary: 'service uses zanzibar tuples' }),
      );
      const filler = Array.from({ length: 40 }, (_, i) => `n${i}`).join(' ');
      const hits = await storage.searchRecords({
        namespace: NS,
        query: `service zanzibar ${filler}`,
        limit: 100,
      });
      expect(hits[0]!.record.title).toBe('Zanzibar authorization model');
      expect(hits[0]!.terms).toHaveLength(32);
      expect(hits[0]!.terms[0]).toBe('zanzibar');
      expect(hits[0]!.terms).not.toContain('service');
      // "service" is in every record: searching for it alone matches nothing rather than everything.
      expect(await storage.searchRecords({ namespace: NS, query: 'service', limit: 5 })).toEqual(
        [],
      );
    });

    it("a prompt of only a project's common words still finds the records that have them", async () => {
      const storage = await open();
      for (let i = 0; i < 60; i++) {
        await storage.putRecord(
          i % 3 === 0
            ? record({
                title: `Webhook retry note ${i}`,
                summary: `The webhook handler case ${i}.`,
              })
            : record({ title: `Invoice rounding note ${i}`, summary: `Totals case ${i}.` }),
        );
      }
      // "webhook" is in a third of the records: past the common-word share, yet it splits them.
      const hits = await storage.searchRecords({ namespace: NS, query: 'webhook?', limit: 5 });
      expect(hits).toHaveLength(5);
      for (const title of titles(hits)) expect(title).toMatch(/^Webhook/);
      // "note" is in every record: it still searches nothing.
      expect(await storage.searchRecords({ namespace: NS, query: 'note', limit: 5 })).toEqual([]);
    });

    it('isolates namespaces by exact string, with _ and % in actor names', async () => {
      const storage = await open();
      const ns = [...LOOKALIKE_NAMESPACES, '/actor/a\\b/project/p/'];
      for (const namespace of ns)
        await storage.putRecord(record({ namespace, title: `secret plan for ${namespace}` }));
      for (const namespace of ns) {
        const hits = await storage.searchRecords({ namespace, query: 'secret plan', limit: 10 });
        expect(hits.map((h) => h.record.namespace)).toEqual([namespace]);
        expect(
          (await storage.listRecords({ namespace, limit: 10 })).items.map((r) => r.namespace),
        ).toEqual([namespace]);
      }
    });

    it("a project holding most records finds its own, however far other projects' outrank them", async () => {
      const storage = await open();
      const other = '/actor/alice/project/other/';
      // 100 records here (5 about the ledger, in their summary), 50 in another project
      // (25 with the ledger in their title: every one of them outranks every one here).
      for (let i = 0; i < 100; i++) {
        await storage.putRecord(
          record(
            i < 5
              ? { title: `Export note ${i}`, summary: 'The ledger export quotes CSV cells.' }
              : { title: `Filler note ${i}`, summary: 'Nothing to see.' },
          ),
        );
      }
      for (let i = 0; i < 50; i++) {
        await storage.putRecord(
          record({
            namespace: other,
            title: i < 25 ? `Ledger rounding ${i}` : `Other filler ${i}`,
            summary: 'Elsewhere.',
          }),
        );
      }
      for (const limit of [1, 5, 10]) {
        const hits = await storage.searchRecords({ namespace: NS, query: 'ledger', limit });
        expect(hits.map((h) => h.record.namespace)).toEqual(Array(Math.min(limit, 5)).fill(NS));
        expect(hits.every((h) => h.record.summary.includes('ledger'))).toBe(true);
      }
      const there = await storage.searchRecords({ namespace: other, query: 'ledger', limit: 30 });
      expect(there).toHaveLength(25);
      expect(there.every((h) => h.record.namespace === other)).toBe(true);
    });

    it('filters by observation type and file', async () => {
      const storage = await open();
      await storage.putRecord(
        record({
          title: 'Webhook error',
          observation_type: 'error',
          files_touched: ['src/webhooks/stripe.ts'],
        }),
      );
      await storage.putRecord(
        record({
          title: 'Webhook decision',
          observation_type: 'decision',
          files_touched: ['src/app.ts'],
        }),
      );
      expect(
        titles(
          await storage.searchRecords({
            namespace: NS,
            query: 'webhook',
            limit: 5,
            observationType: 'error',
          }),
        ),
      ).toEqual(['Webhook error']);
      expect(
        titles(
          await storage.searchRecords({
            namespace: NS,
            query: 'webhook',
            limit: 5,
            file: 'stripe.ts',
          }),
        ),
      ).toEqual(['Webhook error']);
      expect(
        titles(
          await storage.searchRecords({
            namespace: NS,
            query: 'webhook',
            limit: 5,
            file: 'src/app.ts',
          }),
        ),
      ).toEqual(['Webhook decision']);
    });

    it('never throws on hostile text', async () => {
      const storage = await open();
      await storage.putRecord(
        record({ title: 'NEAR the AND of OR', summary: 'quotes " and parens ( ) and * ^ : here' }),
      );
      const fixed = HOSTILE_TEXTS;
      const arbitrary = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom(...fixed),
        fc
          .array(
            fc.constantFrom(
              'NEAR',
              'AND',
              'OR',
              'NOT',
              '"',
              '(',
              ')',
              '*',
              '^',
              ':',
              'near',
              'and',
              'x',
              '-',
              '+',
              '{',
              '}',
            ),
            { maxLength: 20 },
          )
          .map((parts) => parts.join(' ')),
      );
      await fc.assert(
        fc.asyncProperty(arbitrary, async (query) => {
          const hits = await storage.searchRecords({ namespace: NS, query, limit: 5 });
          expect(Array.isArray(hits)).toBe(true);
        }),
        { numRuns: 300 },
      );
      const big = `${'lorem ipsum dolor '.repeat(1200)} parens`;
      expect(titles(await storage.searchRecords({ namespace: NS, query: big, limit: 5 }))).toEqual([
        'NEAR the AND of OR',
      ]);
    });

    it('searches every namespace when none is given, and honours the limit', async () => {
      const storage = await open();
      await storage.putRecord(record({ title: 'Postgres vacuum tuning' }));
      await storage.putRecord(
        record({ title: 'Postgres vacuum freeze', namespace: '/actor/bob/project/x/' }),
      );
      expect(await storage.searchRecords({ query: 'vacuum', limit: 5 })).toHaveLength(2);
      expect(await storage.searchRecords({ query: 'vacuum', limit: 1 })).toHaveLength(1);
      expect(await storage.searchRecords({ query: 'vacuum', limit: 0 })).toEqual([]);
      const [hit] = await storage.searchRecords({ namespace: NS, query: 'vacuum', limit: 5 });
      expect(hit).toMatchObject({ via: 'fts', terms: ['vacuum'] });
      expect(hit!.score).toBeGreaterThan(0);
    });

    it('honours per-query column weights', async () => {
      const storage = await open();
      await storage.putRecord(record({ title: 'Tokio runtime', summary: 'Nothing else.' }));
      await storage.putRecord(
        record({ title: 'Async notes', summary: 'tokio tokio tokio tokio spawn blocking' }),
      );
      const byTitle = await storage.searchRecords({ namespace: NS, query: 'tokio', limit: 5 });
      expect(titles(byTitle)[0]).toBe('Tokio runtime');
      const bySummary = await storage.searchRecords({
        namespace: NS,
        query: 'tokio',
        limit: 5,
        weights: { title: 0.01, summary: 50 },
      });
      expect(titles(bySummary)[0]).toBe('Async notes');
    });
  });
}

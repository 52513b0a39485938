import { describe, expect, it } from 'vitest';
import { NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function recordsConformance({ open }: BackendFactory): void {
  describe('memory records', () => {
    it('round-trips every field', async () => {
      const storage = await open();
      const r = record({
        facts: ['express.json() consumed the raw body'],
        concepts: ['stripe', 'webhooks'],
        files_touched: ['src/webhooks/stripe.ts'],
        metadata: { chain: { parent: null }, n: 1.5, list: ['a'] },
        updated_at: '2026-02-03T04:05:06.000Z',
      });
      await storage.putRecord(r);
      expect(await storage.getRecord(r.record_id)).toEqual(r);
      expect(await storage.getRecords([r.record_id, 'mr_missing'])).toEqual([r]);
      expect(await storage.getRecord('mr_missing')).toBeUndefined();
    });

    it('putting a record with an existing id replaces it, in search and counts too', async () => {
      const storage = await open();
      const r = record({ title: 'Kafka consumer lag', observation_type: 'error' });
      await storage.putRecord(r);
      await storage.putRecord({ ...r, title: 'Rabbitmq prefetch', observation_type: 'decision' });
      expect((await storage.getRecord(r.record_id))?.title).toBe('Rabbitmq prefetch');
      expect(await storage.searchRecords({ namespace: NS, query: 'kafka', limit: 5 })).toEqual([]);
      expect(
        await storage.searchRecords({ namespace: NS, query: 'rabbitmq', limit: 5 }),
      ).toHaveLength(1);
      const stats = await storage.stats();
      expect(stats.memories).toEqual({ total: 1, byType: { decision: 1 } });
      expect((await storage.listRecords({ limit: 10 })).total).toBe(1);
    });

    it('insertRecord never replaces: an existing id, in any namespace, is left as it was', async () => {
      const storage = await open();
      const r = record({ title: 'Kafka consumer lag' });
      expect(await storage.insertRecord(r)).toBe(true);
      const other = { ...r, namespace: '/actor/eve/project/other/', title: 'Overwritten' };
      const both = await Promise.all([storage.insertRecord(other), storage.insertRecord(other)]);
      expect(both).toEqual([false, false]);
      expect(await storage.getRecord(r.record_id)).toEqual(r);
      expect((await storage.listRecords({ limit: 10 })).total).toBe(1);
      const fresh = record({ title: 'Two writers, one id' });
      const race = await Promise.all([storage.insertRecord(fresh), storage.insertRecord(fresh)]);
      expect(race.filter(Boolean)).toHaveLength(1);
    });

    it('delete removes the record from search too', async () => {
      const storage = await open();
      const r = record({ title: 'Stripe signature verification needs the raw body' });
      await storage.putRecord(r);
      expect(
        await storage.searchRecords({ namespace: NS, query: 'stripe signature', limit: 5 }),
      ).toHaveLength(1);
      expect(await storage.deleteRecord(r.record_id)).toBe(true);
      expect(await storage.deleteRecord(r.record_id)).toBe(false);
      expect(
        await storage.searchRecords({ namespace: NS, query: 'stripe signature', limit: 5 }),
      ).toEqual([]);
      expect((await storage.stats()).memories.total).toBe(0);
    });

    it('edits update search and set updated_at', async () => {
      const storage = await open();
      const r = record({ title: 'Old title about kafka' });
      await storage.putRecord(r);
      const updated = await storage.updateRecord(r.record_id, {
        title: 'New title about rabbitmq',
      });
      expect(updated?.title).toBe('New title about rabbitmq');
      expect(updated?.updated_at).toBeDefined();
      expect(await storage.getRecord(r.record_id)).toEqual(updated);
      expect(await storage.searchRecords({ namespace: NS, query: 'kafka', limit: 5 })).toEqual([]);
      expect(
        await storage.searchRecords({ namespace: NS, query: 'rabbitmq', limit: 5 }),
      ).toHaveLength(1);
      expect(
        await storage.updateRecord('mr_01HZZZZZZZZZZZZZZZZZZZZZZZ', { title: 'x' }),
      ).toBeUndefined();
    });

    it('an edit that changes the type moves the type counts', async () => {
      const storage = await open();
      const r = record({ observation_type: 'error' });
      await storage.putRecord(r);
      await storage.updateRecord(r.record_id, { observation_type: 'decision' });
      expect((await storage.stats()).memories.byType).toEqual({ decision: 1 });
      expect(
        (await storage.listRecords({ namespace: NS, limit: 10, observationType: 'error' })).total,
      ).toBe(0);
    });

    it('lists newest first with totals and filters', async () => {
      const storage = await open();
      for (let i = 0; i < 4; i++) {
        await storage.putRecord(
          record({
            created_at: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
            observation_type: i % 2 ? 'error' : 'decision',
            strategy: i === 0 ? 'compaction' : 'builtin',
          }),
        );
      }
      await storage.putRecord(record({ namespace: '/actor/bob/project/x/' }));
      const page = await storage.listRecords({ namespace: NS, limit: 2 });
      expect(page.total).toBe(4);
      expect(page.items.map((r) => r.created_at)).toEqual([
        '2026-01-04T00:00:00.000Z',
        '2026-01-03T00:00:00.000Z',
      ]);
      const next = await storage.listRecords({ namespace: NS, limit: 2, offset: 2 });
      expect(next.items.map((r) => r.created_at)).toEqual([
        '2026-01-02T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
      ]);
      expect(
        (await storage.listRecords({ namespace: NS, limit: 10, observationType: 'error' })).total,
      ).toBe(2);
      expect(
        (await storage.listRecords({ limit: 10, since: '2026-01-03T00:00:00.000Z', namespace: NS }))
          .total,
      ).toBe(2);
      expect(
        (await storage.listRecords({ limit: 10, until: '2026-01-02T00:00:00.000Z', namespace: NS }))
          .total,
      ).toBe(1);
      const compaction = await storage.listRecords({ limit: 10, strategy: 'compaction' });
      expect(compaction.total).toBe(1);
      expect(compaction.items[0]!.created_at).toBe('2026-01-01T00:00:00.000Z');
      expect((await storage.listRecords({ limit: 10 })).total).toBe(5);
      // Without its count: the same page, the total not read.
      for (const query of [{ namespace: NS }, { namespace: NS, strategy: 'builtin' }, {}]) {
        const counted = await storage.listRecords({ ...query, limit: 2 });
        const uncounted = await storage.listRecords({ ...query, limit: 2, count: false });
        expect(uncounted).toEqual({ items: counted.items, total: -1 });
      }
    });

    it('breaks created_at ties by record id, newest id first', async () => {
      const storage = await open();
      const at = '2026-03-01T00:00:00.000Z';
      const a = record({ created_at: at, record_id: 'mr_01J00000000000000000000001' });
      const b = record({ created_at: at, record_id: 'mr_01J00000000000000000000002' });
      await storage.putRecord(a);
      await storage.putRecord(b);
      expect(
        (await storage.listRecords({ namespace: NS, limit: 10 })).items.map((r) => r.record_id),
      ).toEqual([b.record_id, a.record_id]);
    });

    it('counts memories per type and project', async () => {
      const storage = await open();
      await storage.putRecord(record({ observation_type: 'error' }));
      await storage.putRecord(record({ observation_type: 'error' }));
      await storage.putRecord(
        record({ observation_type: 'pattern', namespace: '/actor/bob/project/x/' }),
      );
      const stats = await storage.stats();
      expect(stats.memories).toEqual({ total: 3, byType: { error: 2, pattern: 1 } });
      expect(stats.projects.map((p) => [p.namespace, p.memories])).toEqual([
        [NS, 2],
        ['/actor/bob/project/x/', 1],
      ]);
      expect((await storage.stats('/actor/bob/project/x/')).memories.total).toBe(1);
    });
  });
}

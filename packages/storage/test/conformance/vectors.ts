import { describe, expect, it } from 'vitest';
import { allPages, LOOKALIKE_NAMESPACES, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

const MODEL = 'test-model';
/** A unit vector pointing mostly along axis `i` of 32. */
function axis(i: number, tilt = 0): Float32Array {
  const v = new Float32Array(32);
  v[i] = 1;
  v[(i + 1) % 32] = tilt;
  const norm = Math.hypot(1, tilt);
  return v.map((x) => x / norm);
}

export function vectorsConformance({ open, reopen }: BackendFactory): void {
  describe('record vectors', () => {
    it('finds the nearest records of the namespace, best first', async () => {
      const storage = await open();
      const [a, b, c] = [record(), record(), record()];
      for (const r of [a, b, c]) await storage.putRecord(r);
      expect(
        await storage.putVectors(MODEL, [
          { recordId: a.record_id, vector: axis(0) },
          { recordId: b.record_id, vector: axis(0, 0.5) },
          { recordId: c.record_id, vector: axis(5) },
        ]),
      ).toBe(3);
      const hits = await storage.searchVectors({
        namespace: NS,
        modelId: MODEL,
        vector: axis(0),
        limit: 2,
      });
      expect(hits.map((h) => h.recordId)).toEqual([a.record_id, b.record_id]);
      expect(hits[0]!.score).toBeCloseTo(1, 2);
      // Another model's vectors are another space.
      expect(
        await storage.searchVectors({ namespace: NS, modelId: 'other', vector: axis(0), limit: 2 }),
      ).toEqual([]);
    });

    it('never answers from another namespace, even one differing only in _ or %', async () => {
      const storage = await open();
      const namespaces = LOOKALIKE_NAMESPACES;
      const ids: string[] = [];
      for (const namespace of namespaces) {
        const r = record({ namespace });
        ids.push(r.record_id);
        await storage.putRecord(r);
        await storage.putVectors(MODEL, [{ recordId: r.record_id, vector: axis(3) }]);
      }
      for (const [i, namespace] of namespaces.entries()) {
        const hits = await storage.searchVectors({
          namespace,
          modelId: MODEL,
          vector: axis(3),
          limit: 10,
        });
        expect(hits.map((h) => h.recordId)).toEqual([ids[i]]);
      }
    });

    it('a deleted record never comes back, also when another process deletes it', async () => {
      const storage = await open();
      // Another connection to the same store: another process, or another collector.
      const other = await reopen(storage);
      {
        const [kept, gone, goneElsewhere] = [record(), record(), record()];
        for (const r of [kept, gone, goneElsewhere]) await storage.putRecord(r);
        await storage.putVectors(
          MODEL,
          [kept, gone, goneElsewhere].map((r) => ({ recordId: r.record_id, vector: axis(1) })),
        );
        const search = () =>
          storage.searchVectors({ namespace: NS, modelId: MODEL, vector: axis(1), limit: 10 });
        expect(await search()).toHaveLength(3); // now cached in memory
        await storage.deleteRecord(gone.record_id);
        await other.deleteRecord(goneElsewhere.record_id);
        expect((await search()).map((h) => h.recordId)).toEqual([kept.record_id]);
        // A vector for a record that no longer exists is not stored.
        expect(
          await storage.putVectors(MODEL, [{ recordId: gone.record_id, vector: axis(1) }]),
        ).toBe(0);
        expect(await search()).toHaveLength(1);
      }
    });

    it('sees vectors written by another process', async () => {
      const storage = await open();
      // Another connection to the same store: another process, or another collector.
      const other = await reopen(storage);
      {
        const [a, b] = [record(), record()];
        await storage.putRecord(a);
        await storage.putRecord(b);
        await storage.putVectors(MODEL, [{ recordId: a.record_id, vector: axis(2) }]);
        const search = () =>
          storage.searchVectors({ namespace: NS, modelId: MODEL, vector: axis(2), limit: 10 });
        expect(await search()).toHaveLength(1);
        await other.putVectors(MODEL, [{ recordId: b.record_id, vector: axis(2) }]);
        expect(await search()).toHaveLength(2);
      }
    });

    it('an edit of the text drops the stale vector; other edits keep it', async () => {
      const storage = await open();
      const r = record({ title: 'Kafka consumer lag' });
      await storage.putRecord(r);
      await storage.putVectors(MODEL, [{ recordId: r.record_id, vector: axis(4) }]);
      await storage.updateRecord(r.record_id, { observation_type: 'pattern' });
      expect(await storage.vectorCoverage(MODEL, NS)).toEqual({ records: 1, withVector: 1 });
      await storage.updateRecord(r.record_id, { title: 'RabbitMQ consumer lag' });
      expect(await storage.vectorCoverage(MODEL, NS)).toEqual({ records: 1, withVector: 0 });
      expect(
        await storage.searchVectors({ namespace: NS, modelId: MODEL, vector: axis(4), limit: 5 }),
      ).toEqual([]);
      // The questions a record answers are embedded with it (retrieval's embeddingText).
      await storage.putVectors(MODEL, [{ recordId: r.record_id, vector: axis(4) }]);
      await storage.updateRecord(r.record_id, { questions: ['why is the consumer behind?'] });
      expect(await storage.vectorCoverage(MODEL, NS)).toEqual({ records: 1, withVector: 0 });
    });

    it('pages through records without a vector for a model, and prunes other models', async () => {
      const storage = await open();
      const records = Array.from({ length: 25 }, (_, i) =>
        record({ created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }),
      );
      for (const r of records) await storage.putRecord(r);
      await storage.putVectors(
        'old-model',
        records.map((r) => ({ recordId: r.record_id, vector: axis(0) })),
      );
      await storage.putVectors(MODEL, [{ recordId: records[3]!.record_id, vector: axis(0) }]);
      expect(await storage.vectorCoverage(MODEL)).toEqual({ records: 25, withVector: 1 });
      const seen = (
        await allPages(async (cursor) => {
          const page = await storage.recordsWithoutVector({ modelId: MODEL, limit: 10, ...cursor });
          return { items: page.records, nextCursor: page.nextCursor };
        })
      ).map((r) => r.record_id);
      expect(seen).toHaveLength(24);
      expect(seen).not.toContain(records[3]!.record_id);
      expect(seen[0]).toBe(records[24]!.record_id); // newest first
      expect(await storage.deleteVectorsExcept(MODEL)).toBe(25);
      expect(await storage.vectorCoverage('old-model')).toEqual({ records: 25, withVector: 0 });
      expect(await storage.vectorCoverage(MODEL)).toEqual({ records: 25, withVector: 1 });
    });

    it('a query of the wrong dimension finds nothing rather than failing', async () => {
      const storage = await open();
      const r = record();
      await storage.putRecord(r);
      await storage.putVectors(MODEL, [{ recordId: r.record_id, vector: axis(0) }]);
      expect(
        await storage.searchVectors({
          namespace: NS,
          modelId: MODEL,
          vector: new Float32Array(7),
          limit: 5,
        }),
      ).toEqual([]);
    });
  });
}

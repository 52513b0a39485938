import { describe, expect, it } from 'vitest';
import { event, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function bufferConformance({ open }: BackendFactory): void {
  describe('pending buffer', () => {
    it('appends newly stored events to the pending buffer in the same write', async () => {
      const storage = await open();
      const a = event();
      const b = event();
      await storage.putEvent(a, { pending: true });
      await storage.putEvent(b, { pending: true });
      await storage.putEvent(a, { pending: true }); // duplicate: not appended twice
      await storage.putEvent(event()); // not asked to be pending
      const pending = await storage.listPending(NS);
      expect(pending.map((p) => p.eventId)).toEqual([a.event_id, b.event_id]);
      expect(pending[0]!.bytes).toBe(Buffer.byteLength(JSON.stringify(a)));
      expect(pending[0]!.namespace).toBe(NS);
      expect((await storage.listPending(NS, { limit: 1 })).map((p) => p.eventId)).toEqual([
        a.event_id,
      ]);
      const [summary] = await storage.pendingSummary();
      expect(summary).toMatchObject({ namespace: NS, count: 2 });
      expect(summary!.bytes).toBe(pending[0]!.bytes + pending[1]!.bytes);
      expect(summary!.oldestAt <= summary!.newestAt).toBe(true);
      expect(await storage.removePending(NS, [a.event_id])).toBe(1);
      expect(await storage.removePending(NS, [a.event_id])).toBe(0);
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([b.event_id]);
    });

    it('keeps pending entries per namespace, exactly', async () => {
      const storage = await open();
      const other = '/actor/a_b/project/p/';
      const mine = event();
      const theirs = event({ namespace: other });
      await storage.putEvent(mine, { pending: true });
      await storage.putEvent(theirs, { pending: true });
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([mine.event_id]);
      expect(await storage.listPending('/actor/a%b/project/p/')).toEqual([]);
      expect(await storage.removePending(NS, [theirs.event_id])).toBe(0);
      expect((await storage.pendingSummary()).map((s) => [s.namespace, s.count])).toEqual([
        [other, 1],
        [NS, 1],
      ]);
    });

    it('commitExtraction stores nothing when its pending entries are gone (stale_batch)', async () => {
      const storage = await open();
      const seen = [event(), event()];
      for (const e of seen) await storage.putEvent(e, { pending: true });
      const ids = seen.map((e) => e.event_id);
      // Another run (or another collector on the same database) committed the batch first.
      await storage.commitExtraction({ namespace: NS, records: [], eventIds: ids });
      const twice = record({ source_event_ids: ids });
      await expect(
        storage.commitExtraction({ namespace: NS, records: [twice], eventIds: ids }),
      ).rejects.toMatchObject({ code: 'stale_batch' });
      expect(await storage.getRecord(twice.record_id)).toBeUndefined();
    });

    it('an extraction whose events were forgotten while it ran saves nothing made from them', async () => {
      const storage = await open();
      const seen = [event(), event()];
      for (const e of seen) await storage.putEvent(e, { pending: true });
      // The extraction has read its batch and is waiting on the model when a forget comes.
      const batch = (await storage.listPending(NS)).map((p) => p.eventId);
      expect(batch).toEqual(seen.map((e) => e.event_id));
      expect(await storage.forget({ event: seen[0]!.event_id })).toMatchObject({ events: 1 });
      const made = record({ summary: 'made from a forgotten event', source_event_ids: batch });
      await expect(
        storage.commitExtraction({ namespace: NS, records: [made], eventIds: batch }),
      ).rejects.toMatchObject({ code: 'stale_batch' });
      expect(await storage.getRecord(made.record_id)).toBeUndefined();
      expect((await storage.stats()).memories.total).toBe(0);
    });

    it('commitExtraction stores records and removes only the events it saw', async () => {
      const storage = await open();
      const seen = [event(), event()];
      for (const e of seen) await storage.putEvent(e, { pending: true });
      const late = event();
      await storage.putEvent(late, { pending: true });
      const r = record({ source_event_ids: seen.map((e) => e.event_id) });
      await storage.commitExtraction({
        namespace: NS,
        records: [r],
        eventIds: seen.map((e) => e.event_id),
      });
      expect(await storage.getRecord(r.record_id)).toEqual(r);
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([late.event_id]);
      expect((await storage.stats()).memories.total).toBe(1);
    });

    it('a commit of no records still removes the events (an empty extraction)', async () => {
      const storage = await open();
      const e = event();
      await storage.putEvent(e, { pending: true });
      await storage.commitExtraction({ namespace: NS, records: [], eventIds: [e.event_id] });
      expect(await storage.listPending(NS)).toEqual([]);
      expect(await storage.pendingSummary()).toEqual([]);
    });

    it('parks entries past a ceiling in order and re-queues the oldest within a byte limit', async () => {
      const storage = await open();
      // Both backends park: without it, events past a project's ceiling are never extracted.
      expect(storage.parkPending && storage.requeueParked && storage.parkedSummary).toBeTruthy();
      const events = [event(), event(), event(), event()];
      for (const e of events) await storage.putEvent(e, { pending: true });
      const ids = events.map((e) => e.event_id);
      const bytes = (await storage.listPending(NS)).map((p) => p.bytes);
      expect(await storage.parkPending!(NS, ids.slice(1))).toBe(3);
      expect(await storage.parkPending!(NS, ids.slice(1))).toBe(0); // no longer pending
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([ids[0]]);
      expect(await storage.parkedSummary!()).toEqual([
        { namespace: NS, count: 3, bytes: bytes[1]! + bytes[2]! + bytes[3]! },
      ]);
      // Room for one more entry beside the one pending: the oldest parked one moves.
      expect(await storage.requeueParked!(NS, bytes[0]! + bytes[1]! + 1)).toBe(1);
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual(ids.slice(0, 2));
      // An empty buffer takes at least one entry, however large.
      await storage.commitExtraction({ namespace: NS, records: [], eventIds: ids.slice(0, 2) });
      expect(await storage.requeueParked!(NS, 1)).toBe(1);
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([ids[2]]);
      expect(await storage.requeueParked!('/actor/other/project/p/', 1_000_000)).toBe(0);
      // Forgetting the project takes its parked entries too.
      const counts = await storage.forget({ namespace: NS });
      expect(counts.pending).toBe(2);
      expect(await storage.parkedSummary!()).toEqual([]);
      expect(await storage.getEvent(ids[3]!)).toBeUndefined();
    });
  });
}

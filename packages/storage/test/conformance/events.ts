import { describe, expect, it } from 'vitest';
import { event, NS } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function eventsConformance({ open }: BackendFactory): void {
  describe('events', () => {
    it('stores an event once and reports a duplicate as not stored', async () => {
      const storage = await open();
      const e = event();
      expect(await storage.putEvent(e)).toEqual({ stored: true });
      expect(await storage.putEvent({ ...e, body: { type: 'text', content: 'changed' } })).toEqual({
        stored: false,
      });
      expect(await storage.getEvent(e.event_id)).toEqual(e);
      expect(await storage.getEventJson(e.event_id)).toBe(JSON.stringify(e));
      expect((await storage.stats()).events.total).toBe(1);
    });

    it('stores one of many concurrent copies of an event', async () => {
      const storage = await open();
      const e = event();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => storage.putEvent(e, { pending: true })),
      );
      expect(results.filter((r) => r.stored)).toHaveLength(1);
      expect((await storage.stats()).events.total).toBe(1);
      expect(await storage.listPending(NS)).toHaveLength(1);
    });

    it('keeps the JSON byte-identical, unicode and escapes included', async () => {
      const storage = await open();
      const e = event({
        body: { type: 'text', content: 'naïve 漢字 🎉 "quotes" \\ back\nslash \u0000 nul' },
      });
      await storage.putEvent(e);
      expect(await storage.getEventJson(e.event_id)).toBe(JSON.stringify(e));
      expect(await storage.getEvent(e.event_id)).toEqual(e);
    });

    it('answers missing ids with undefined and leaves them out of lists', async () => {
      const storage = await open();
      const a = event();
      const b = event();
      await storage.putEvent(a);
      await storage.putEvent(b);
      expect(await storage.getEvent('01HZZZZZZZZZZZZZZZZZZZZZZZ')).toBeUndefined();
      expect(await storage.getEventJson('nul\u0000id')).toBeUndefined();
      const got = await storage.getEvents([b.event_id, 'missing', a.event_id]);
      expect(got.map((e) => e.event_id)).toEqual([b.event_id, a.event_id]);
      expect(await storage.getEvents([])).toEqual([]);
    });

    it('lists newest first with cursor paging and exact namespace filtering', async () => {
      const storage = await open();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const e = event();
        ids.push(e.event_id);
        await storage.putEvent(e);
      }
      await storage.putEvent(event({ namespace: '/actor/alice/project/other/' }));
      const first = await storage.listEvents({ namespace: NS, limit: 3 });
      expect(first.items.map((e) => e.event_id)).toEqual(ids.slice(2).reverse());
      const second = await storage.listEvents({
        namespace: NS,
        limit: 3,
        cursor: first.nextCursor!,
      });
      expect(second.items.map((e) => e.event_id)).toEqual(ids.slice(0, 2).reverse());
      expect(second.nextCursor).toBeUndefined();
      expect((await storage.listEvents({ limit: 10 })).items).toHaveLength(6);
      expect((await storage.listEvents({ limit: 10, namespace: '/actor/%/' })).items).toEqual([]);
    });

    it('filters lists by session and kind, and refuses a malformed cursor', async () => {
      const storage = await open();
      await storage.putEvent(event({ session_id: 's1', kind: 'prompt' }));
      await storage.putEvent(event({ session_id: 's1', kind: 'tool_use' }));
      await storage.putEvent(event({ session_id: 's2', kind: 'prompt' }));
      expect((await storage.listEvents({ limit: 10, sessionId: 's1' })).items).toHaveLength(2);
      expect(
        (await storage.listEvents({ limit: 10, sessionId: 's1', kind: 'prompt' })).items,
      ).toHaveLength(1);
      await expect(storage.listEvents({ limit: 10, cursor: 'abc' })).rejects.toMatchObject({
        code: 'invalid_cursor',
      });
      expect(
        (await storage.listEvents({ limit: 10, cursor: '99999999999999999999999' })).items,
      ).toHaveLength(3);
    });

    it('counts events per kind and project', async () => {
      const storage = await open();
      await storage.putEvent(event({ kind: 'prompt' }));
      await storage.putEvent(event({ kind: 'tool_use' }));
      await storage.putEvent(event({ kind: 'tool_use', namespace: '/actor/bob/project/x/' }));
      const stats = await storage.stats();
      expect(stats.events).toEqual({ total: 3, byKind: { prompt: 1, tool_use: 2 } });
      expect(stats.projects.map((p) => [p.namespace, p.events])).toEqual([
        ['/actor/alice/project/payments-api/', 2],
        ['/actor/bob/project/x/', 1],
      ]);
      expect(stats.projects[0]!.lastEventAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      const one = await storage.stats(NS);
      expect(one.events.total).toBe(2);
      expect(one.projects).toHaveLength(1);
    });
  });
}

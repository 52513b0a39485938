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

    it('stores many concurrent events once each, counted once, in arrival order per namespace', async () => {
      const storage = await open();
      const namespaces = [NS, '/actor/bob/project/x/', '/actor/carol/project/y/'];
      const kinds = ['prompt', 'tool_use', 'note'] as const;
      const events = Array.from({ length: 120 }, (_, i) =>
        event({ namespace: namespaces[i % 3]!, kind: kinds[Math.floor(i / 3) % 3]! }),
      );
      // Every fifth event is sent twice at once; half of them join the pending buffer.
      const puts = events.flatMap((e, i) => {
        const options = { pending: i % 2 === 0 };
        const put = () => storage.putEvent(e, options);
        return i % 5 === 0 ? [put(), put()] : [put()];
      });
      const results = await Promise.all(puts);
      expect(results.filter((r) => r.stored)).toHaveLength(120);
      const stats = await storage.stats();
      expect(stats.events.total).toBe(120);
      const byKind: Record<string, number> = {};
      for (const e of events) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      expect(stats.events.byKind).toEqual(byKind);
      expect(stats.projects.map((p) => p.events)).toEqual([40, 40, 40]);
      for (const namespace of namespaces) {
        const mine = events.filter((e) => e.namespace === namespace);
        const listed = await storage.listEvents({ namespace, limit: 100 });
        expect(listed.items.map((e) => e.event_id)).toEqual(mine.map((e) => e.event_id).reverse());
        const pending = await storage.listPending(namespace);
        expect(pending.map((p) => p.eventId)).toEqual(
          mine.filter((e) => events.indexOf(e) % 2 === 0).map((e) => e.event_id),
        );
      }
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

    it('reads session, kind and time of events without their bodies', async () => {
      const storage = await open();
      const a = event({ session_id: 'session-a', kind: 'prompt' });
      const b = event({ session_id: 'session-b', kind: 'tool_use' });
      await storage.putEvent(a);
      await storage.putEvent(b);
      const heads = await storage.getEventHeads([b.event_id, 'missing', a.event_id, 'nul\u0000']);
      expect(heads).toEqual([
        {
          eventId: b.event_id,
          namespace: b.namespace,
          sessionId: 'session-b',
          kind: 'tool_use',
          validTime: b.valid_time,
        },
        {
          eventId: a.event_id,
          namespace: a.namespace,
          sessionId: 'session-a',
          kind: 'prompt',
          validTime: a.valid_time,
        },
      ]);
      expect(await storage.getEventHeads([])).toEqual([]);
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

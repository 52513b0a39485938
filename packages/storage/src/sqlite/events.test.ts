import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { event, NS, openTemp } from '../../test/helpers.js';

describe('events', () => {
  it('stores an event once and reports a duplicate as not stored', async () => {
    const storage = await openTemp();
    const e = event();
    expect(await storage.putEvent(e)).toEqual({ stored: true });
    expect(await storage.putEvent({ ...e, body: { type: 'text', content: 'changed' } })).toEqual({
      stored: false,
    });
    expect(await storage.getEvent(e.event_id)).toEqual(e);
    expect(await storage.getEventJson(e.event_id)).toBe(JSON.stringify(e));
    expect((await storage.stats()).events.total).toBe(1);
  });

  it('lists newest first with cursor paging and exact namespace filtering', async () => {
    const storage = await openTemp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const e = event();
      ids.push(e.event_id);
      await storage.putEvent(e);
    }
    await storage.putEvent(event({ namespace: '/actor/alice/project/other/' }));
    const first = await storage.listEvents({ namespace: NS, limit: 3 });
    expect(first.items.map((e) => e.event_id)).toEqual(ids.slice(2).reverse());
    const second = await storage.listEvents({ namespace: NS, limit: 3, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.event_id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.nextCursor).toBeUndefined();
    expect((await storage.listEvents({ limit: 10 })).items).toHaveLength(6);
  });

  it('appends newly stored events to the pending buffer in the same write', async () => {
    const storage = await openTemp();
    const a = event();
    const b = event();
    await Promise.all([
      storage.putEvent(a, { pending: true }),
      storage.putEvent(b, { pending: true }),
    ]);
    await storage.putEvent(a, { pending: true }); // duplicate: not appended twice
    const pending = await storage.listPending(NS);
    expect(pending.map((p) => p.eventId)).toEqual([a.event_id, b.event_id]);
    const [summary] = await storage.pendingSummary();
    expect(summary).toMatchObject({ namespace: NS, count: 2 });
    expect(await storage.removePending(NS, [a.event_id])).toBe(1);
    expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([b.event_id]);
  });

  it('creates the data directory with mode 0700 and the file with 0600', async () => {
    const storage = await openTemp();
    expect(statSync(dirname(storage.path)).mode & 0o777).toBe(0o700);
    expect(statSync(storage.path).mode & 0o777).toBe(0o600);
  });
});

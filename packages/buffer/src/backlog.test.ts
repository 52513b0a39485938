import { describe, expect, it } from 'vitest';
import { event, NS, pendingIds, tempStorage } from '../test/helpers.js';
import { createBacklog } from './backlog.js';

const size = (e: ReturnType<typeof event>) => Buffer.byteLength(JSON.stringify(e));

describe('backlog', () => {
  it('counts what it admits; past the ceiling it parks, and re-queues once the backlog drained', async () => {
    const { storage } = await tempStorage();
    const errors: unknown[] = [];
    const first = event('note', 'a'.repeat(400));
    const backlog = createBacklog({
      storage,
      ceilingBytes: size(first),
      onError: (e) => errors.push(e),
    });
    expect(backlog.pending(NS)).toEqual({ count: 0, bytes: 0 });
    expect(backlog.accepts(NS)).toBe(true);

    await storage.putEvent(first, { pending: true });
    expect(backlog.admit(first)).toBe(true);
    expect(backlog.pending(NS)).toEqual({ count: 1, bytes: size(first) });
    expect(backlog.accepts(NS)).toBe(false);

    const second = event('note', 'b');
    await storage.putEvent(second, { pending: true });
    expect(backlog.admit(second)).toBe(false);
    await backlog.settled();
    expect(backlog.unbuffered(NS)).toBe(1);
    expect(backlog.hasParked(NS)).toBe(true);
    expect(await pendingIds(storage)).toEqual([first.event_id]);
    // Nothing moves back while the buffer is at the ceiling.
    expect(await backlog.requeue(NS)).toBe(0);

    await storage.removePending(NS, [first.event_id]);
    expect(await backlog.requeue(NS)).toBe(1);
    expect(backlog.hasParked(NS)).toBe(false);
    expect(await pendingIds(storage)).toEqual([second.event_id]);
    expect(backlog.pending(NS)).toEqual({ count: 1, bytes: size(second) });
    expect(errors).toEqual([]);
  });

  it('restores after a restart: parked entries first, as the ceiling allows, then every project’s pending sizes', async () => {
    const { storage } = await tempStorage();
    const events = [event('note', 'x'.repeat(300)), event('note', 'y'.repeat(300))];
    const ceilingBytes = size(events[0]!);
    const before = createBacklog({ storage, ceilingBytes, onError: () => {} });
    for (const e of events) {
      await storage.putEvent(e, { pending: true });
      before.admit(e);
    }
    await before.settled();
    await storage.removePending(NS, [events[0]!.event_id]);

    const after = createBacklog({ storage, ceilingBytes, onError: () => {} });
    const { parked, pending } = await after.restore();
    expect(parked).toEqual([NS]);
    expect(pending.map((p) => [p.namespace, p.count])).toEqual([[NS, 1]]);
    expect(after.pending(NS)).toEqual({ count: 1, bytes: size(events[1]!) });
    expect(after.hasParked(NS)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { event, NS, openTemp } from '../../test/helpers.js';

describe('parked entries', () => {
  it('are forgotten with their events (the project is gone from pending and parked)', async () => {
    const storage = await openTemp();
    const e = event();
    await storage.putEvent(e, { pending: true });
    expect(await storage.parkPending(NS, [e.event_id])).toBe(1);
    expect(await storage.parkedSummary()).toEqual([
      { namespace: NS, count: 1, bytes: expect.any(Number) },
    ]);
    await storage.forget({ namespace: NS });
    expect(await storage.parkedSummary()).toEqual([]);
    expect(await storage.getEvent(e.event_id)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { event, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function lifecycleConformance({ open, reopen }: BackendFactory): void {
  describe('lifecycle', () => {
    it('reports its size and refuses work once closed', async () => {
      const storage = await open();
      await storage.putEvent(event());
      expect(await storage.sizeBytes()).toBeGreaterThanOrEqual(0);
      await storage.close();
      await storage.close(); // twice is fine
      await expect(storage.putEvent(event())).rejects.toMatchObject({ code: 'closed' });
      await expect(storage.listRecords({ limit: 1 })).rejects.toMatchObject({ code: 'closed' });
    });

    it('keeps everything acknowledged across close and reopen, migrating nothing twice', async () => {
      const storage = await open();
      const events = Array.from({ length: 20 }, () => event());
      await Promise.all(events.map((e) => storage.putEvent(e, { pending: true })));
      const r = record({ title: 'Survives a restart' });
      await storage.putRecord(r);
      await storage.close();
      const again = await reopen(storage);
      expect(await again.getEvents(events.map((e) => e.event_id))).toEqual(events);
      expect(await again.listPending(NS)).toHaveLength(20);
      expect(await again.getRecord(r.record_id)).toEqual(r);
      expect(await again.searchRecords({ namespace: NS, query: 'restart', limit: 5 })).toHaveLength(
        1,
      );
    });
  });
}

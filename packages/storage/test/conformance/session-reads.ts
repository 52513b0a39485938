import { describe, expect, it } from 'vitest';
import { event, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function sessionReadsConformance({ open }: BackendFactory): void {
  describe('session reads', () => {
    it("reads the project's newest records and the session's newest event heads together", async () => {
      const storage = await open();
      const records = [];
      for (let i = 0; i < 3; i++) {
        const r = record({ created_at: new Date(Date.UTC(2026, 0, i + 1)).toISOString() });
        records.push(r);
        await storage.putRecord(r);
      }
      await storage.putRecord(record({ namespace: '/actor/bob/project/x/' }));
      // The session's events in arrival order, one of them in another project; another
      // session's event between them.
      const mine = [
        event({ session_id: 's1', kind: 'prompt' }),
        event({ session_id: 's1' }),
        event({ session_id: 's2' }),
        event({ session_id: 's1', namespace: '/actor/bob/project/x/' }),
      ];
      for (const e of mine) await storage.putEvent(e);
      const head = (e: (typeof mine)[number]) => ({
        eventId: e.event_id,
        namespace: e.namespace,
        sessionId: e.session_id,
        kind: e.kind,
        validTime: e.valid_time,
      });

      const all = await storage.sessionReads({
        namespace: NS,
        sessionId: 's1',
        records: 2,
        events: 3,
      });
      expect(all.records).toEqual(
        (await storage.listRecords({ namespace: NS, limit: 2, count: false })).items,
      );
      expect(all.records.map((r) => r.record_id)).toEqual([
        records[2]!.record_id,
        records[1]!.record_id,
      ]);
      expect(all.events).toEqual([head(mine[3]!), head(mine[1]!), head(mine[0]!)]);
      expect(all.complete).toBe(true);

      const cut = await storage.sessionReads({
        namespace: NS,
        sessionId: 's1',
        records: 0,
        events: 2,
      });
      expect(cut).toEqual({
        records: [],
        events: [head(mine[3]!), head(mine[1]!)],
        complete: false,
      });
    });

    it('finds nothing for an unknown session, a lookalike namespace or a NUL', async () => {
      const storage = await open();
      await storage.putRecord(record());
      await storage.putEvent(event({ session_id: 's1' }));
      const none = { records: [], events: [], complete: true };
      for (const [namespace, sessionId] of [
        ['/actor/%/', 'nobody'],
        ['/actor/alice/project/x/\u0000', 's1\u0000'],
      ] as const) {
        expect(
          await storage.sessionReads({ namespace, sessionId, records: 10, events: 10 }),
        ).toEqual(none);
      }
      const records = await storage.sessionReads({
        namespace: NS,
        sessionId: 'nobody',
        records: 10,
        events: 10,
      });
      expect(records.records).toHaveLength(1);
      expect(records.events).toEqual([]);
    });
  });
}

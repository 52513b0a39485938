import { describe, expect, it } from 'vitest';
import { allPages, event, NS, record } from '../helpers.js';
import type { BackendFactory } from './types.js';

const OTHER = '/actor/alice/project/billing/';

export function dataConformance({ open }: BackendFactory): void {
  describe('your data: forget, scan, prune', () => {
    it('forgets each scope, counting first, and keeps the rest and the totals right', async () => {
      const storage = await open();
      const a1 = event({ session_id: 'a' });
      const a2 = event({ session_id: 'a' });
      const b1 = event({ session_id: 'b' });
      const o1 = event({ namespace: OTHER, session_id: 'a' });
      for (const e of [a1, a2, b1, o1]) await storage.putEvent(e, { pending: true });
      const fromA = record({ source_event_ids: [a1.event_id] });
      const fromB = record({ source_event_ids: [b1.event_id] });
      const other = record({ namespace: OTHER, source_event_ids: [o1.event_id] });
      for (const r of [fromA, fromB, other]) await storage.putRecord(r);
      await storage.logRetrieval({
        namespace: NS,
        sessionId: 'a',
        eventId: a1.event_id,
        query: 'q',
        recordIds: [],
        scores: [],
        latencyMs: 1,
        timedOut: false,
        budgetCut: false,
      });

      const session = { session: 'a', namespace: NS };
      const preview = await storage.countForget(session);
      expect(preview).toEqual({ events: 2, records: 1, pending: 2, logs: 1 });
      expect(await storage.forget(session)).toEqual(preview);
      expect(await storage.getEvent(a1.event_id)).toBeUndefined();
      expect(await storage.getRecord(fromA.record_id)).toBeUndefined();
      expect(await storage.getEvent(o1.event_id)).toBeDefined();
      expect((await storage.listPending(NS)).map((p) => p.eventId)).toEqual([b1.event_id]);

      expect(await storage.forget({ record: fromB.record_id })).toMatchObject({ records: 1 });
      expect(await storage.getEvent(b1.event_id)).toBeDefined();
      expect(await storage.forget({ namespace: NS })).toMatchObject({ events: 1, pending: 1 });
      const stats = await storage.stats();
      expect(stats.events.total).toBe(1);
      expect(stats.memories.total).toBe(1);
      expect(stats.projects.map((p) => p.namespace)).toEqual([OTHER]);
      expect(await storage.forget({ all: true })).toMatchObject({ events: 1, records: 1 });
      expect((await storage.stats()).projects).toEqual([]);
    });

    it("finds every namespace whose events name a project's directory, earlier ids included", async () => {
      const storage = await open();
      const source = (projectPath?: string) => ({
        surface: 'kiro-cli' as const,
        version: '1.0.0',
        client_id: 'test',
        ...(projectPath ? { project_path: projectPath } : {}),
      });
      const before = '/actor/alice/project/app-1111/';
      const after = '/actor/alice/project/app-2222/';
      const elsewhere = '/actor/alice/project/app-3333/';
      await storage.putEvent(event({ namespace: before, source: source('/src/app') }));
      await storage.putEvent(event({ namespace: after, source: source('/src/app') }));
      await storage.putEvent(event({ namespace: after, source: source('/src/app') }));
      // Names are compared exactly: a sibling with the same prefix is another project.
      await storage.putEvent(event({ namespace: elsewhere, source: source('/src/app-old') }));
      await storage.putEvent(event({ namespace: OTHER, source: source() }));
      expect(await storage.projectNamespaces(['/src/app'])).toEqual([before, after]);
      expect(await storage.projectNamespaces(['/src/app', '/src/app-old'])).toEqual([
        before,
        after,
        elsewhere,
      ]);
      expect(await storage.projectNamespaces(['/src/none'])).toEqual([]);
      expect(await storage.projectNamespaces([])).toEqual([]);
    });

    it('scans events in arrival order as stored text, and records page by page', async () => {
      const storage = await open();
      const events = Array.from({ length: 7 }, () => event());
      for (const e of events) await storage.putEvent(e, { receivedAt: '2026-01-02T03:04:05.000Z' });
      const scanned = await allPages((cursor) => storage.scanEvents({ limit: 3, ...cursor }));
      expect(scanned.every((s) => s.receivedAt === '2026-01-02T03:04:05.000Z')).toBe(true);
      const seen = scanned.map((s) => s.json);
      expect(seen).toEqual(events.map((e) => JSON.stringify(e)));
      const records = [record(), record(), record({ namespace: OTHER })];
      for (const r of records) await storage.putRecord(r);
      const ids = (
        await allPages((cursor) => storage.scanRecords({ namespace: NS, limit: 1, ...cursor }))
      ).map((r) => r.record_id);
      expect(ids.sort()).toEqual([records[0]!.record_id, records[1]!.record_id].sort());
    });

    it('prunes events older than a time or past a size, keeping records', async () => {
      const storage = await open();
      const old = event();
      await storage.putEvent(old, { receivedAt: '2020-01-01T00:00:00.000Z' });
      const fresh = Array.from({ length: 4 }, () => event());
      for (const e of fresh) await storage.putEvent(e);
      const kept = record({ source_event_ids: [old.event_id] });
      await storage.putRecord(kept);
      const policy = { namespace: NS, olderThan: '2021-01-01T00:00:00.000Z' };
      expect(await storage.pruneEvents({ ...policy, dryRun: true })).toMatchObject({ events: 1 });
      expect(await storage.getEvent(old.event_id)).toBeDefined();
      expect(await storage.pruneEvents(policy)).toMatchObject({ events: 1, records: 0 });
      expect(await storage.getRecord(kept.record_id)).toBeDefined();
      const bytes = JSON.stringify(fresh[0]).length;
      expect(await storage.pruneEvents({ namespace: NS, maxBytes: bytes * 2 })).toMatchObject({
        events: 2,
      });
      expect((await storage.stats(NS)).events.total).toBe(2);
      expect(await storage.getEvent(fresh[3]!.event_id)).toBeDefined();
    });
  });
}

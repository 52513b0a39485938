import { describe, expect, it } from 'vitest';
import { NS } from '../helpers.js';
import type { BackendFactory } from './types.js';

export function logsConformance({ open }: BackendFactory): void {
  describe('logs', () => {
    it('logs retrievals and extractions, newest first', async () => {
      const storage = await open();
      const q1 = {
        namespace: NS,
        sessionId: 's1',
        eventId: '01J00000000000000000000000',
        query: 'q1',
        recordIds: ['mr_a'],
        scores: [1.5],
        latencyMs: 3.25,
        timedOut: false,
        budgetCut: true,
      };
      await storage.logRetrieval(q1);
      await storage.logRetrieval({
        namespace: '/actor/bob/project/x/',
        sessionId: 's2',
        query: 'q2',
        recordIds: [],
        scores: [],
        latencyMs: 500,
        timedOut: true,
        budgetCut: false,
        error: 'search timed out',
      });
      const all = await storage.listRetrievals({ limit: 10 });
      expect(all.map((r) => r.query)).toEqual(['q2', 'q1']);
      expect(all[0]).toMatchObject({ timedOut: true, error: 'search timed out' });
      expect(all[0]!.eventId).toBeUndefined();
      expect((await storage.listRetrievals({ limit: 10, sessionId: 's1' }))[0]).toEqual({
        id: all[1]!.id,
        ...q1,
        createdAt: all[1]!.createdAt,
      });
      expect(
        (await storage.listRetrievals({ limit: 10, namespace: NS })).map((r) => r.query),
      ).toEqual(['q1']);
      expect(
        (await storage.listRetrievals({ limit: 10, afterId: all[1]!.id })).map((r) => r.query),
      ).toEqual(['q2']);
      // `since`: only those logged at or after a time (the viewer's last hour), newest first.
      expect(
        (await storage.listRetrievals({ limit: 10, since: all[1]!.createdAt })).map((r) => r.query),
      ).toEqual(all.filter((r) => r.createdAt >= all[1]!.createdAt).map((r) => r.query));
      expect(
        await storage.listRetrievals({ limit: 10, since: '2999-01-01T00:00:00.000Z' }),
      ).toEqual([]);
      await storage.logExtraction({
        namespace: NS,
        extractor: 'builtin',
        status: 'ok',
        batchSize: 3,
        records: 2,
        attempts: 1,
        durationMs: 12,
        startedAt: '2026-01-01T00:00:00.000Z',
      });
      await storage.logExtraction({
        namespace: NS,
        extractor: 'acp',
        status: 'failed',
        batchSize: 1,
        records: 0,
        attempts: 3,
        durationMs: 60_000,
        error: 'agent exited',
        startedAt: '2026-01-01T00:01:00.000Z',
      });
      const extractions = await storage.listExtractions({ limit: 5 });
      expect(extractions).toMatchObject([
        { status: 'failed', records: 0, error: 'agent exited', attempts: 3 },
        { status: 'ok', records: 2, batchSize: 3, durationMs: 12, extractor: 'builtin' },
      ]);
      expect(extractions[1]!.error).toBeUndefined();
      expect(await storage.listExtractions({ limit: 5, afterId: extractions[0]!.id })).toEqual([]);
      expect(await storage.listExtractions({ limit: 5, namespace: '/actor/x/project/y/' })).toEqual(
        [],
      );
    });

    it('stores every one of many retrievals logged at once, each line as given', async () => {
      const storage = await open();
      const lines = Array.from({ length: 40 }, (_, i) => ({
        namespace: NS,
        sessionId: `s${i % 3}`,
        ...(i % 2 === 0 ? { eventId: `01J0000000000000000000${String(i).padStart(4, '0')}` } : {}),
        query: `q${i}`,
        recordIds: i % 4 === 0 ? [] : [`mr_${i}`],
        scores: i % 4 === 0 ? [] : [i / 8],
        latencyMs: i,
        timedOut: i % 5 === 0,
        budgetCut: i % 7 === 0,
        ...(i % 6 === 0 ? { error: `failed ${i}` } : {}),
      }));
      await Promise.all(lines.map((line) => storage.logRetrieval(line)));
      const stored = await storage.listRetrievals({ limit: 100 });
      expect(stored).toHaveLength(40);
      const byQuery = new Map(stored.map(({ id, createdAt, ...line }) => [line.query, line]));
      for (const line of lines) expect(byQuery.get(line.query)).toEqual(line);
    });

    it('keeps at most 4096 characters of a logged query', async () => {
      const storage = await open();
      await storage.logRetrieval({
        namespace: NS,
        query: 'q'.repeat(10_000),
        recordIds: [],
        scores: [],
        latencyMs: 1,
        timedOut: false,
        budgetCut: false,
      });
      expect((await storage.listRetrievals({ limit: 1 }))[0]!.query).toHaveLength(4096);
    });
  });
}

import { newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { event, NS, openTemp, record } from '../../test/helpers.js';

describe('memory records', () => {
  it('round-trips every field', async () => {
    const storage = await openTemp();
    const r = record({
      facts: ['express.json() consumed the raw body'],
      concepts: ['stripe', 'webhooks'],
      files_touched: ['src/webhooks/stripe.ts'],
      metadata: { chain: { parent: null } },
    });
    await storage.putRecord(r);
    expect(await storage.getRecord(r.record_id)).toEqual(r);
    expect(await storage.getRecords([r.record_id, 'mr_missing'])).toEqual([r]);
  });

  it('delete removes the record from search too', async () => {
    const storage = await openTemp();
    const r = record({ title: 'Stripe signature verification needs the raw body' });
    await storage.putRecord(r);
    expect(
      await storage.searchRecords({ namespace: NS, query: 'stripe signature', limit: 5 }),
    ).toHaveLength(1);
    expect(await storage.deleteRecord(r.record_id)).toBe(true);
    expect(await storage.deleteRecord(r.record_id)).toBe(false);
    expect(
      await storage.searchRecords({ namespace: NS, query: 'stripe signature', limit: 5 }),
    ).toEqual([]);
    expect((await storage.stats()).memories.total).toBe(0);
  });

  it('edits update search and set updated_at', async () => {
    const storage = await openTemp();
    const r = record({ title: 'Old title about kafka' });
    await storage.putRecord(r);
    const updated = await storage.updateRecord(r.record_id, { title: 'New title about rabbitmq' });
    expect(updated?.title).toBe('New title about rabbitmq');
    expect(updated?.updated_at).toBeDefined();
    expect(await storage.searchRecords({ namespace: NS, query: 'kafka', limit: 5 })).toEqual([]);
    expect(
      await storage.searchRecords({ namespace: NS, query: 'rabbitmq', limit: 5 }),
    ).toHaveLength(1);
    expect(
      await storage.updateRecord('mr_01HZZZZZZZZZZZZZZZZZZZZZZZ', { title: 'x' }),
    ).toBeUndefined();
  });

  it('lists newest first with totals and filters', async () => {
    const storage = await openTemp();
    for (let i = 0; i < 4; i++) {
      await storage.putRecord(
        record({
          created_at: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
          observation_type: i % 2 ? 'error' : 'decision',
        }),
      );
    }
    await storage.putRecord(record({ namespace: '/actor/bob/project/x/' }));
    const page = await storage.listRecords({ namespace: NS, limit: 2 });
    expect(page.total).toBe(4);
    expect(page.items.map((r) => r.created_at)).toEqual([
      '2026-01-04T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
    ]);
    expect(
      (await storage.listRecords({ namespace: NS, limit: 10, observationType: 'error' })).total,
    ).toBe(2);
    expect(
      (await storage.listRecords({ limit: 10, since: '2026-01-03T00:00:00.000Z', namespace: NS }))
        .total,
    ).toBe(2);
    expect((await storage.listRecords({ limit: 10 })).total).toBe(5);
  });

  it('commitExtraction stores records and removes only the events it saw', async () => {
    const storage = await openTemp();
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
  });

  it('logs retrievals and extractions, newest first', async () => {
    const storage = await openTemp();
    await storage.logRetrieval({
      namespace: NS,
      sessionId: 's1',
      query: 'q1',
      recordIds: ['mr_a'],
      scores: [1.5],
      latencyMs: 3,
      timedOut: false,
      budgetCut: false,
    });
    await storage.logRetrieval({
      namespace: NS,
      sessionId: 's2',
      query: 'q2',
      recordIds: [],
      scores: [],
      latencyMs: 500,
      timedOut: true,
      budgetCut: false,
    });
    expect((await storage.listRetrievals({ limit: 10 })).map((r) => r.query)).toEqual(['q2', 'q1']);
    expect((await storage.listRetrievals({ limit: 10, sessionId: 's1' }))[0]).toMatchObject({
      recordIds: ['mr_a'],
      scores: [1.5],
    });
    await storage.logExtraction({
      namespace: NS,
      extractor: 'builtin',
      status: 'ok',
      batchSize: 3,
      records: 2,
      attempts: 1,
      durationMs: 12,
      startedAt: new Date().toISOString(),
    });
    expect(await storage.listExtractions({ limit: 5 })).toMatchObject([
      { status: 'ok', records: 2 },
    ]);
    void newEventId;
  });
});

import type { StorageBackend } from '@kiro-learn/storage';
import { describe, expect, it } from 'vitest';
import { type BufferOptions, createBuffer, type ExtractFn } from '../src/index.js';
import {
  batchRecord,
  deferred,
  event,
  ingest,
  NS,
  pendingIds,
  runs,
  tempBuffer,
  tempStorage,
  track,
} from './helpers.js';

/** A deterministic extractor: one record citing every event of the batch. */
const oneRecord: ExtractFn = async (batch) => ({
  extractor: 'test',
  records: [batchRecord(batch)],
});

/** An extractor that fails with `message` until `recover()`, then makes one record a batch. */
function failingUntilRecovered(message: string) {
  let healthy = false;
  const extract: ExtractFn = async (batch) => {
    if (!healthy) throw new Error(message);
    return oneRecord(batch);
  };
  return {
    extract,
    recover: () => {
      healthy = true;
    },
  };
}

/** An extractor that waits for `gate` to open, then makes one record a batch. */
function gated() {
  const gate = deferred();
  const extract: ExtractFn = async (batch) => {
    await gate.promise;
    return oneRecord(batch);
  };
  return { gate, extract };
}

const quiet: Partial<BufferOptions> = { idleMs: 600_000 };

async function records(storage: StorageBackend) {
  return (await storage.listRecords({ namespace: NS, limit: 100 })).items;
}

describe('pending buffer', () => {
  it('extracts a turn as soon as it ends, stores its records and empties the buffer', async () => {
    const { storage, buffer } = await tempBuffer({ extract: oneRecord, options: quiet });
    const done = runs(buffer);
    await ingest(storage, buffer, event('prompt', 'fix the login bug'));
    await ingest(storage, buffer, event('tool_use'));
    await ingest(storage, buffer, event('session_summary', ''));
    const [run] = await done;
    expect(run).toMatchObject({
      trigger: 'turn_end',
      status: 'ok',
      batchSize: 3,
      records: 1,
      extractor: 'test',
    });
    expect((await records(storage)).map((r) => r.summary)).toEqual([
      'prompt tool_use session_summary',
    ]);
    expect(await pendingIds(storage)).toEqual([]);
    expect((await storage.listExtractions({ limit: 10 }))[0]).toMatchObject({
      status: 'ok',
      batchSize: 3,
    });
    expect(buffer.status().projects[0]).toMatchObject({ pendingEvents: 0, extracting: false });
  });

  it("extracts at once when a note says the agent's context was compacted", async () => {
    const { storage, buffer } = await tempBuffer({ extract: oneRecord, options: quiet });
    const done = runs(buffer);
    await ingest(storage, buffer, event('prompt', 'fix the login bug'));
    await ingest(storage, buffer, event('tool_use'));
    // Any agent's compaction hook (Gemini CLI's PreCompress here): what it held is memory now.
    await ingest(storage, buffer, {
      ...event('note'),
      body: { type: 'json', data: { hook: 'PreCompress', source: 'compact' } },
    });
    const [run] = await done;
    expect(run).toMatchObject({ trigger: 'turn_end', status: 'ok', batchSize: 3 });
  });

  it('extracts when pending bytes reach the threshold, and after an idle spell', async () => {
    const { storage } = await tempStorage();
    const buffer = track(
      createBuffer({ storage, extract: oneRecord, options: { ...quiet, thresholdBytes: 3000 } }),
    );
    const first = runs(buffer);
    await ingest(storage, buffer, event('note', 'a'.repeat(2000)));
    await ingest(storage, buffer, event('note', 'b'.repeat(2000)));
    expect((await first)[0]).toMatchObject({ trigger: 'threshold', batchSize: 2 });

    const idle = track(createBuffer({ storage, extract: oneRecord, options: { idleMs: 20 } }));
    const second = runs(idle);
    await ingest(storage, idle, event('note', 'small'));
    expect((await second)[0]).toMatchObject({ trigger: 'idle', batchSize: 1 });
  });

  it('keeps events appended during a slow extraction pending, and extracts them in the next run', async () => {
    const gate = deferred();
    const batches: string[][] = [];
    const extract: ExtractFn = async (batch) => {
      batches.push(batch.events.map((e) => e.event_id));
      if (batches.length === 1) await gate.promise;
      return oneRecord(batch);
    };
    const { storage, buffer } = await tempBuffer({ extract, options: quiet });
    const done = runs(buffer, 2);
    const turn1 = [
      await ingest(storage, buffer, event('prompt')),
      await ingest(storage, buffer, event('session_summary')),
    ];
    // The first extraction is now running and held open; a second turn arrives meanwhile.
    const turn2 = [
      await ingest(storage, buffer, event('prompt')),
      await ingest(storage, buffer, event('session_summary')),
    ];
    expect(buffer.status().projects[0]!.extracting).toBe(true);
    expect(await pendingIds(storage)).toEqual([...turn1, ...turn2].map((e) => e.event_id));
    gate.resolve();
    const [a, b] = await done;
    expect(batches).toEqual([turn1.map((e) => e.event_id), turn2.map((e) => e.event_id)]);
    expect([a!.trigger, b!.trigger]).toEqual(['turn_end', 'turn_end']);
    expect(await pendingIds(storage)).toEqual([]);
    expect(await records(storage)).toHaveLength(2);
  });

  it('leaves a failed batch pending, opens the breaker after 3 failures, and tries again after the back-off', async () => {
    const { extract, recover } = failingUntilRecovered('agent exited (code 1)');
    const { storage, buffer } = await tempBuffer({
      extract,
      options: { idleMs: 600_000, retryMs: 10, breakerBackoffMs: 40, breakerMaxBackoffMs: 60 },
    });
    const failing = runs(buffer, 5);
    const e = await ingest(storage, buffer, event('session_summary'));
    const seen = await failing;
    expect(
      seen.map((run) => [
        run.status,
        run.breaker.state,
        run.breaker.consecutiveFailures,
        run.breaker.backoffMs,
      ]),
    ).toEqual([
      ['failed', 'closed', 1, 40],
      ['failed', 'closed', 2, 40],
      ['failed', 'open', 3, 40],
      ['failed', 'open', 4, 60], // half-open trial failed: back-off doubled, capped at 60
      ['failed', 'open', 5, 60],
    ]);
    expect(seen.map((run) => run.trigger)).toEqual([
      'turn_end',
      'retry',
      'retry',
      'retry',
      'retry',
    ]);
    expect(seen[0]!.error).toBe('agent exited (code 1)');
    expect(await pendingIds(storage)).toEqual([e.event_id]);
    expect(
      (await storage.listExtractions({ limit: 10 })).every((log) => log.status === 'failed'),
    ).toBe(true);

    recover();
    const [recovered] = await runs(buffer);
    expect(recovered).toMatchObject({
      status: 'ok',
      breaker: { state: 'closed', consecutiveFailures: 0 },
    });
    expect(await pendingIds(storage)).toEqual([]);
  });

  it('lets extractNow through an open breaker and says when nothing is pending', async () => {
    const { extract, recover } = failingUntilRecovered('boom');
    const { storage, buffer } = await tempBuffer({
      extract,
      options: { idleMs: 600_000, retryMs: 0, breakerBackoffMs: 600_000 },
    });
    const failing = runs(buffer, 3);
    await ingest(storage, buffer, event('session_summary'));
    await failing;
    expect(buffer.breakerState(NS)).toBe('open');
    expect(buffer.status().projects[0]!.next?.trigger).toBe('retry');
    recover();
    expect(await buffer.extractNow(NS)).toMatchObject({ trigger: 'manual', status: 'ok' });
    expect(buffer.breakerState(NS)).toBe('closed');
    await expect(buffer.extractNow(NS)).rejects.toMatchObject({ code: 'nothing_pending' });
    expect(buffer.breakerState('/actor/dev/project/never-seen/')).toBeUndefined();
  });

  it('stores but stops buffering a project past the ceiling, and says so', async () => {
    const { gate, extract } = gated();
    const { storage, buffer } = await tempBuffer({
      extract,
      options: { ...quiet, thresholdBytes: 1000, ceilingBytes: 3000 },
    });
    const big = () => event('note', 'z'.repeat(1200));
    const kept = [
      await ingest(storage, buffer, big()),
      await ingest(storage, buffer, big()),
      await ingest(storage, buffer, big()),
    ];
    const over = await ingest(storage, buffer, big());
    expect(buffer.status().projects[0]).toMatchObject({
      overCeiling: true,
      unbufferedEvents: 1,
      extracting: true,
    });
    expect(buffer.accepts(NS)).toBe(false);
    gate.resolve();
    await buffer.drain();
    expect(await storage.getEvent(over.event_id)).toEqual(over);
    const pending = await pendingIds(storage);
    expect(pending).not.toContain(over.event_id);
    expect(kept.map((e) => e.event_id)).toEqual(expect.arrayContaining(pending));
  });

  it('re-queues what was parked past the ceiling once the backlog drains: every event is extracted', async () => {
    let healthy = false;
    const extracted = new Set<string>();
    const { storage, buffer } = await tempBuffer({
      extract: async (batch) => {
        if (!healthy) throw new Error('extractor down');
        for (const e of batch.events) extracted.add(e.event_id);
        return oneRecord(batch);
      },
      options: { ...quiet, thresholdBytes: 2000, ceilingBytes: 4000, maxBatchBytes: 2000 },
    });
    const sent: string[] = [];
    for (let i = 0; i < 30; i++)
      sent.push((await ingest(storage, buffer, event('note', 'y'.repeat(400)))).event_id);
    expect(buffer.status().projects[0]!.unbufferedEvents).toBeGreaterThan(0);
    healthy = true;
    await buffer.extractNow(NS);
    expect([...extracted].sort()).toEqual([...sent].sort());
    expect(await pendingIds(storage)).toEqual([]);
    expect(await storage.parkedSummary()).toEqual([]);
  });

  it('re-queues parked entries left by a previous run at start', async () => {
    const { storage } = await tempStorage();
    const parked = [event('note', 'a'), event('note', 'b')];
    for (const e of parked) await storage.putEvent(e, { pending: true });
    await storage.parkPending(
      NS,
      parked.map((e) => e.event_id),
    );
    expect(await pendingIds(storage)).toEqual([]);
    const buffer = track(createBuffer({ storage, extract: oneRecord, options: quiet }));
    await buffer.start();
    expect(await pendingIds(storage)).toEqual(parked.map((e) => e.event_id));
  });

  it('stores nothing for a batch whose pending entries another process already committed', async () => {
    const { gate, extract } = gated();
    const { storage, buffer } = await tempBuffer({
      extract,
      options: quiet,
    });
    const e = await ingest(storage, buffer, event('session_summary'));
    const done = runs(buffer);
    await expect.poll(() => buffer.status().projects[0]?.extracting).toBe(true);
    // Another collector on the same database extracts the same batch first.
    await storage.commitExtraction({ namespace: NS, records: [], eventIds: [e.event_id] });
    gate.resolve();
    const [run] = await done;
    expect(run).toMatchObject({ status: 'failed', records: 0 });
    expect(await records(storage)).toEqual([]);
    expect(buffer.breakerState(NS)).toBe('closed');
  });

  it('refuses records of another namespace and keeps the batch', async () => {
    const { storage, buffer } = await tempBuffer({
      extract: async (batch) => ({ records: [batchRecord(batch, '/actor/dev/project/other/')] }),
      options: quiet,
    });
    const done = runs(buffer);
    const e = await ingest(storage, buffer, event('session_summary'));
    expect((await done)[0]!.error).toMatch(/record of \/actor\/dev\/project\/other\//);
    expect(await pendingIds(storage)).toEqual([e.event_id]);
  });

  it('re-arms watchers from the database on start', async () => {
    const { storage } = await tempStorage();
    const old = event('tool_use');
    await storage.putEvent(old, { pending: true });
    const buffer = track(createBuffer({ storage, extract: oneRecord, options: { idleMs: 0 } }));
    const done = runs(buffer);
    await buffer.start();
    expect((await done)[0]).toMatchObject({ trigger: 'startup', batchSize: 1, status: 'ok' });
    expect(await pendingIds(storage)).toEqual([]);
  });

  it('splits a large backlog into capped batches', async () => {
    const { storage } = await tempStorage();
    for (let i = 0; i < 5; i++) await storage.putEvent(event('note', `n${i}`), { pending: true });
    const buffer = track(
      createBuffer({ storage, extract: oneRecord, options: { ...quiet, maxBatchEvents: 2 } }),
    );
    const done = runs(buffer, 3);
    await buffer.extractNow(NS);
    expect((await done).map((run) => [run.trigger, run.batchSize])).toEqual([
      ['manual', 2],
      ['backlog', 2],
      ['backlog', 1],
    ]);
  });
});

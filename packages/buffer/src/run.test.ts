import { describe, expect, it } from 'vitest';
import { batchRecord, event, NS, pendingIds, tempStorage } from '../test/helpers.js';
import { createBacklog } from './backlog.js';
import { createCompactionDriver } from './compaction/driver.js';
import { resolveCompactionOptions } from './compaction/options.js';
import { createBuiltinSummarizer } from './compaction/summarize.js';
import { estimateTokens } from './compaction/tokens.js';
import { resolveOptions } from './options.js';
import { createRunner } from './run.js';
import type { ExtractBatch, ExtractFn, ExtractionRun } from './types.js';

async function runner(extract: ExtractFn, owner = 'test-owner') {
  const { storage } = await tempStorage();
  const options = resolveOptions({ maxBatchEvents: 2, breakerFailures: 2 });
  const backlog = createBacklog({ storage, ceilingBytes: options.ceilingBytes, onError: () => {} });
  const emitted: ExtractionRun[] = [];
  const run = createRunner({
    storage,
    extract,
    options,
    backlog,
    compaction: createCompactionDriver({
      storage,
      options: resolveCompactionOptions({ enabled: false }),
      summarize: createBuiltinSummarizer(),
      countTokens: estimateTokens,
      backlog,
      now: Date.now,
    }),
    owner,
    extractorName: undefined,
    emit: (r) => emitted.push(r),
    closed: () => false,
    now: Date.now,
    onError: (error) => {
      throw error;
    },
  });
  return { storage, run, emitted };
}

describe('runner', () => {
  it('extracts the backlog batch after batch, each committed with its pending entries', async () => {
    const { storage, run, emitted } = await runner(async (batch) => ({
      extractor: 'test',
      records: [batchRecord(batch)],
    }));
    for (const kind of ['prompt', 'tool_use', 'session_summary'] as const) {
      await storage.putEvent(event(kind), { pending: true });
    }
    const last = await run.run(NS, 'turn_end');
    expect(emitted.map((r) => [r.trigger, r.batchSize, r.status])).toEqual([['turn_end', 2, 'ok']]);
    expect(last).toMatchObject({ trigger: 'backlog', batchSize: 1, status: 'ok', records: 1 });
    expect(run.lastRun(NS)).toBe(last);
    expect(await pendingIds(storage)).toEqual([]);
    const stored = (await storage.listRecords({ namespace: NS, limit: 10 })).items;
    expect(stored.map((r) => r.summary).sort()).toEqual(['prompt tool_use', 'session_summary']);
    expect((await storage.listExtractions({ limit: 10 })).map((e) => e.status)).toEqual([
      'ok',
      'ok',
    ]);
  });

  it('keeps a failed batch pending and counts the failure against the project’s breaker', async () => {
    const { storage, run } = await runner(async () => {
      throw Object.assign(new Error('the agent produced garbage'), { attempts: 3 });
    });
    const e = event('session_summary');
    await storage.putEvent(e, { pending: true });
    const first = await run.run(NS, 'turn_end');
    expect(first).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'the agent produced garbage',
      breaker: { state: 'closed', consecutiveFailures: 1 },
    });
    expect(await pendingIds(storage)).toEqual([e.event_id]);
    await run.run(NS, 'retry');
    expect(run.breaker(NS).state(Date.now())).toBe('open');
  });

  it('does nothing while another collector holds the project’s claim', async () => {
    const extracted: ExtractBatch[] = [];
    const { storage, run } = await runner(async (batch) => {
      extracted.push(batch);
      return { records: [] };
    });
    await storage.putEvent(event('session_summary'), { pending: true });
    expect(await storage.claimExtraction(NS, 'another-collector', 60_000)).toBe(true);
    expect(await run.run(NS, 'turn_end')).toBeUndefined();
    expect(run.claimedElsewhere(NS)).toBe(true);
    expect(extracted).toEqual([]);
    await storage.releaseExtraction(NS, 'another-collector');
    expect(await run.run(NS, 'retry')).toMatchObject({ status: 'skipped', batchSize: 1 });
    expect(run.claimedElsewhere(NS)).toBe(false);
  });
});

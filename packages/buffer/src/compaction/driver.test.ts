import { describe, expect, it } from 'vitest';
import { event, NS, read, tempStorage } from '../../test/helpers.js';
import { createBacklog } from '../backlog.js';
import { buildBatch } from '../batch.js';
import { createCompactionDriver } from './driver.js';
import { resolveCompactionOptions } from './options.js';
import { createBuiltinSummarizer } from './summarize.js';
import { estimateTokens } from './tokens.js';

async function driver(compaction: Parameters<typeof resolveCompactionOptions>[0]) {
  const { storage } = await tempStorage();
  const backlog = createBacklog({ storage, ceilingBytes: 1 << 30, onError: () => {} });
  return {
    storage,
    driver: createCompactionDriver({
      storage,
      options: resolveCompactionOptions(compaction),
      summarize: createBuiltinSummarizer(),
      countTokens: estimateTokens,
      backlog,
      now: Date.now,
    }),
  };
}

const limits = { maxBytes: 1 << 30, maxEvents: 1000 };
const budget = { maxPromptTokens: 2000, triggerTokens: 1000, summarizerTokens: 1500 };

describe('compaction driver', () => {
  it('leaves a batch within its token budget alone', async () => {
    const { storage, driver: d } = await driver(budget);
    await storage.putEvent(event('prompt', 'short'), { pending: true });
    expect(await d.compact(NS, await buildBatch(storage, NS, limits))).toBeUndefined();
    expect(d.status(NS)).toEqual({ enabled: true, passes: 0 });
  });

  it('says a project is exhausted when nothing could be reclaimed, until a compactable event comes', async () => {
    const { storage, driver: d } = await driver({
      ...budget,
      protectedTail: 2,
      retention: { note: 'keep_full' },
    });
    for (const e of [
      event('prompt', 'p'.repeat(2000)),
      event('note', 'kept in full'),
      event('prompt', 'q'.repeat(2000)),
      event('note', 'protected'),
      event('note', 'protected too'),
    ]) {
      await storage.putEvent(e, { pending: true });
    }
    const batch = await buildBatch(storage, NS, limits);
    const compacted = await d.compact(NS, batch);
    expect(compacted?.report).toMatchObject({ exhausted: true, passes: 0 });
    expect(d.status(NS).exhausted).toMatchObject({ tokens: compacted!.report.tokensBefore });
    // The same events again: not tried.
    expect(await d.compact(NS, batch)).toBeUndefined();
    d.observe(event('note', 'kept in full, so still exhausted'));
    expect(d.status(NS).exhausted).toBeDefined();
    // File reads are archived by default: compactable.
    d.observe(read('src/app.ts', 'export {}'));
    expect(d.status(NS).exhausted).toBeUndefined();
  });

  it('turned off, compacts nothing however large the batch', async () => {
    const { storage, driver: d } = await driver({ ...budget, enabled: false });
    await storage.putEvent(event('prompt', 'p'.repeat(20_000)), { pending: true });
    expect(await d.compact(NS, await buildBatch(storage, NS, limits))).toBeUndefined();
    expect(await d.load(NS, false)).toEqual({ enabled: false, passes: 0 });
  });
});

import { createAcpExtractor, createBuiltinExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import type { Event } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import {
  createBuffer,
  type ExtractBatch,
  type ExtractionRun,
  estimateTokens,
  retentionKind,
} from '../src/index.js';
import { NS, pendingIds, tempStorage, track } from './helpers.js';
import { longSession } from './session.js';

describe('a 20 MB backlog', () => {
  it('is extracted in bounded passes: every prompt within budget, every read summarized once, nothing left pending', async () => {
    const { storage } = await tempStorage();
    const raw = new Map<string, Event>();
    let bytes = 0;
    for (const e of longSession(NS, 20 * 1024 * 1024)) {
      await storage.putEvent(e, { pending: true });
      bytes += JSON.stringify(e).length;
      // Keep the small events to compare with; file reads are checked by id.
      raw.set(e.event_id, retentionKind(e) === 'file_read' ? ({ kind: e.kind } as Event) : e);
    }
    const maxPromptTokens = 64_000;
    const builtin = createBuiltinExtractor();
    const summarizer = createAcpExtractor({
      command: testAgentCommand('instant'),
      timeoutMs: 20_000,
    });
    const prompts: number[] = [];
    const batches: ExtractBatch[] = [];
    const buffer = track(
      createBuffer({
        storage,
        extract: async (batch) => {
          prompts.push(
            batch.events.reduce((t, e) => t + estimateTokens(JSON.stringify(e.body)) + 12, 0) +
              estimateTokens(batch.summary ?? ''),
          );
          batches.push({ ...batch, events: batch.events.filter((e) => e.kind !== 'tool_use') });
          return builtin.extract(batch);
        },
        summarize: summarizer.summarize!,
        options: { idleMs: 600_000, maxBatchBytes: 2 * 1024 * 1024, maxBatchEvents: 5000 },
        compaction: { maxPromptTokens },
      }),
    );

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const runs: ExtractionRun[] = [];
    const stop = buffer.onExtraction((run) => runs.push(run));
    await buffer.extractNow(NS);
    stop();
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const chain = await storage.listRecords({ namespace: NS, strategy: 'compaction', limit: 500 });
    console.log(
      `20 MB backlog: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${raw.size} events, ${runs.length} extraction passes, ${chain.total} summary passes, ${seconds.toFixed(1)} s, peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB (process max ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB), largest prompt ${Math.max(...prompts)} tokens`,
    );

    expect(await pendingIds(storage)).toEqual([]);
    expect(runs.every((run) => run.status === 'ok')).toBe(true);
    for (const tokens of prompts) expect(tokens).toBeLessThanOrEqual(maxPromptTokens);
    // Every file read but those among the 20 newest events (the protected tail) is covered
    // by exactly one summary record; the chain is unbroken.
    const ids = [...raw.keys()];
    const tail = new Set(ids.slice(-20));
    const isRead = (id: string) => raw.get(id)!.kind === 'tool_use' && !('body' in raw.get(id)!);
    const covered = chain.items.flatMap((r) => r.source_event_ids);
    expect(covered.sort()).toEqual(ids.filter((id) => isRead(id) && !tail.has(id)).sort());
    expect(ids.filter((id) => isRead(id) && tail.has(id)).length).toBeGreaterThan(0);
    const heads = chain.items.map(
      (r) => r.metadata?.compaction as { parent: string | null; pass: number },
    );
    expect(heads.map((h) => h.pass)).toEqual(heads.map((_, i) => chain.total - i));
    expect(heads.at(-1)!.parent).toBeNull();
    // Prompts and turn ends reached the extractor verbatim.
    for (const batch of batches)
      for (const e of batch.events) expect(e).toEqual(raw.get(e.event_id));
  });
});

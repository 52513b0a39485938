import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAcpExtractor, createBuiltinExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import type { Event } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import {
  type ChainHead,
  createBuffer,
  type ExtractBatch,
  type ExtractFn,
  headOf,
} from '../src/index.js';
import {
  bash,
  event,
  ingest,
  NS,
  pendingIds,
  read,
  tempBuffer,
  tempStorage,
  track,
} from './helpers.js';

const builtin = createBuiltinExtractor();
const quiet = { idleMs: 600_000, retryMs: 600_000 };

/** The built-in extractor, keeping every batch it was handed. */
function recording(): { extract: ExtractFn; batches: ExtractBatch[] } {
  const batches: ExtractBatch[] = [];
  return {
    batches,
    extract: async (batch) => {
      batches.push(batch);
      return builtin.extract(batch);
    },
  };
}

function agent(mode: 'instant' | 'script', env: Record<string, string> = {}) {
  return createAcpExtractor({
    command: testAgentCommand(mode),
    env: { ...process.env, ...env },
    timeoutMs: 10_000,
    attempts: 1,
  });
}

const text = (e: Event) => (e.body.type === 'text' ? e.body.content : '');

describe('compaction', () => {
  it('makes no model call when only protected or keep_full events are over budget, says it is exhausted, and a newer compactable event re-arms it', async () => {
    const { storage, dir } = await tempStorage();
    const pidFile = join(dir, 'agent-pids');
    const summarizer = agent('instant', { KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile });
    const { extract, batches } = recording();
    const buffer = track(
      createBuffer({
        storage,
        extract,
        summarize: summarizer.summarize!,
        options: quiet,
        compaction: {
          maxPromptTokens: 2000,
          triggerTokens: 1000,
          summarizerTokens: 1500,
          protectedTail: 2,
          retention: { note: 'keep_full' },
        },
      }),
    );
    const events = [
      event('prompt', 'p'.repeat(2000)),
      event('note', 'kept in full'),
      event('prompt', 'q'.repeat(2000)),
      event('note', 'protected'),
      event('note', 'protected too'),
    ];
    for (const e of events) await storage.putEvent(e, { pending: true });
    const run = await buffer.extractNow(NS);
    expect(run.compaction).toMatchObject({ exhausted: true, passes: 0, recordIds: [] });
    expect(existsSync(pidFile)).toBe(false);
    expect(batches[0]!.events).toEqual(events);
    expect(batches[0]!.summary).toBeUndefined();
    expect((await buffer.compactionStatus(NS)).exhausted).toMatchObject({
      tokens: run.compaction!.tokensBefore,
    });

    // File reads are archived by default: a newer one re-arms compaction, and the next
    // over-budget batch is summarized by the agent.
    await ingest(storage, buffer, read('src/a.ts', 'a'.repeat(1500)));
    expect((await buffer.compactionStatus(NS)).exhausted).toBeUndefined();
    for (const path of ['src/b.ts', 'src/c.ts', 'src/d.ts'])
      await ingest(storage, buffer, read(path, 'b'.repeat(1500)));
    const second = await buffer.extractNow(NS);
    expect(second.compaction).toMatchObject({ exhausted: false, passes: 1, archived: 2 });
    expect(existsSync(pidFile)).toBe(true);
    const [summary] = await storage.getRecords(second.compaction!.recordIds);
    expect(summary).toMatchObject({
      strategy: 'compaction',
      title: 'Test agent compaction',
      files_touched: ['src/a.ts', 'src/b.ts'],
    });
    expect(summary!.facts).toEqual(['events summarized: 2']);
  });

  it('never archives the newest events, keeps critical kinds verbatim, and leaves markers whose event comes back byte-identical', async () => {
    const { extract, batches } = recording();
    const { storage, buffer } = await tempBuffer({
      extract,
      options: quiet,
      compaction: { maxPromptTokens: 4000, triggerTokens: 2000, protectedTail: 3 },
    });
    const prompt = event('prompt', 'Why does the config loader fail?');
    const reads = Array.from({ length: 8 }, (_, i) =>
      read(`src/config/${i}.ts`, `// file ${i}\n${'x'.repeat(3000)}`),
    );
    const failing = bash('pnpm vitest run', 1, `FAIL src/config.test.ts\n${'trace '.repeat(600)}`);
    const passing = bash('pnpm vitest run', 0, ' Tests  12 passed (12)');
    const end = event('session_summary', 'Fixed the loader.');
    const tail = [
      read('README.md', 'short'),
      event('prompt', 'and the docs?'),
      read('docs/a.md', 'tiny'),
    ];
    const all = [prompt, ...reads, failing, passing, end, ...tail];
    for (const e of all) await storage.putEvent(e, { pending: true });

    const run = await buffer.extractNow(NS);
    expect(run).toMatchObject({
      status: 'ok',
      compaction: { passes: 1, archived: 8, structured: 1 },
    });
    expect(run.compaction!.tokensAfter).toBeLessThan(run.compaction!.tokensBefore / 3);
    const [batch] = batches;
    const byId = new Map(batch!.events.map((e) => [e.event_id, e]));
    expect(batch!.events.map((e) => e.event_id)).toEqual(all.map((e) => e.event_id));
    // Critical kinds (the prompt, the failed run with its long output, the turn end) and the tail: verbatim.
    for (const kept of [prompt, failing, end, ...tail])
      expect(byId.get(kept.event_id)).toEqual(kept);
    // The passing run: a deterministic preview.
    expect(byId.get(passing.event_id)!.body).toMatchObject({
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'pnpm vitest run' },
        tool_response: { exit_status: 0 },
      },
    });

    const [recordId] = run.compaction!.recordIds;
    const summary = (await storage.getRecords([recordId!]))[0]!;
    expect(summary.source_event_ids).toEqual(reads.map((e) => e.event_id));
    expect(summary.metadata?.compaction).toMatchObject({
      parent: null,
      pass: 1,
      mode: 'full_rewrite',
      range: { first: reads[0]!.event_id, last: reads[7]!.event_id, events: 8 },
      summarizer: 'builtin',
    });
    expect(batch!.summary).toContain(recordId);
    for (const original of reads) {
      const line = text(byId.get(original.event_id)!);
      expect(line).not.toContain('\n');
      expect(line).toContain(`archived: tool_use ${original.event_id} at ${original.valid_time}`);
      expect(line).toContain(
        `summarized in ${recordId}; recover it with get_event ${original.event_id}`,
      );
      // What get_event serves: the stored JSON, byte for byte.
      expect(await storage.getEventJson(original.event_id)).toBe(JSON.stringify(original));
    }
    expect(await pendingIds(storage)).toEqual([]);
    expect(buffer.status().projects[0]!.compaction).toMatchObject({
      enabled: true,
      passes: 1,
      head: { recordId, pass: 1, range: { events: 8 } },
    });
  });

  it('carries a dropped fact forward, removes an obsolete key for good, notes a changed value, and compacts nothing when the model fails', async () => {
    const { storage, dir } = await tempStorage();
    const script = join(dir, 'script.json');
    const summary = (facts: Record<string, string>, obsolete: string[] = []) =>
      `<compaction_summary><summary>pass</summary><facts>${Object.entries(facts)
        .map(([k, v]) => `<fact key="${k}">${v}</fact>`)
        .join(
          '',
        )}</facts><obsolete>${obsolete.map((k) => `<key>${k}</key>`).join('')}</obsolete></compaction_summary>`;
    writeFileSync(
      script,
      JSON.stringify([
        summary({ database: 'postgres', 'test command': 'pnpm test', port: '3000' }),
        summary({ database: 'sqlite' }, ['port']),
        summary({ database: 'sqlite', 'test command': 'pnpm test', port: '4000' }),
        'Sure! The session went well.',
      ]),
    );
    const summarizer = agent('script', {
      KIRO_LEARN_TEST_AGENT_SCRIPT: script,
      KIRO_LEARN_TEST_AGENT_STATE: join(dir, 'sessions'),
    });
    const buffer = track(
      createBuffer({
        storage,
        extract: (batch) => builtin.extract(batch),
        summarize: summarizer.summarize!,
        options: quiet,
        compaction: { maxPromptTokens: 2000, triggerTokens: 1000, protectedTail: 0 },
      }),
    );
    const heads: ChainHead[] = [];
    for (let pass = 1; pass <= 3; pass++) {
      await storage.putEvent(read(`src/${pass}.ts`, 'y'.repeat(5000)), { pending: true });
      const run = await buffer.extractNow(NS);
      expect(run).toMatchObject({ status: 'ok', compaction: { passes: 1 } });
      heads.push(headOf((await storage.getRecords(run.compaction!.recordIds))[0]!));
    }
    const [first, second, third] = heads;
    expect([first!.parent, second!.parent, third!.parent]).toEqual([
      null,
      first!.recordId,
      second!.recordId,
    ]);
    expect(heads.map((h) => h.mode)).toEqual(['full_rewrite', 'incremental', 'incremental']);
    // Pass 2 dropped "test command" without retiring it, retired "port", changed "database".
    expect(second!.facts).toEqual({ database: 'sqlite', 'test command': 'pnpm test' });
    expect(second!.obsolete).toEqual(['port']);
    expect(second!.changed).toEqual([{ key: 'database', from: 'postgres', to: 'sqlite' }]);
    expect(second!.repairs).toEqual([
      'kept "test command": the summarizer dropped it without marking it obsolete',
    ]);
    expect(second!.summary).toContain('Integrity check: kept "test command"');
    // Pass 3 brought the retired key back: removed again, and said so.
    expect(third!.facts).toEqual({ database: 'sqlite', 'test command': 'pnpm test' });
    expect(third!.repairs).toEqual([
      'removed "port" again: it was marked obsolete on an earlier pass',
    ]);

    // Pass 4: the model answers garbage. Nothing is compacted, no fact is invented, the event stays pending.
    const late = read('src/4.ts', 'z'.repeat(5000));
    await storage.putEvent(late, { pending: true });
    const failed = await buffer.extractNow(NS);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/compaction pass 4 failed, nothing compacted: no usable summary/);
    expect(failed.breaker.consecutiveFailures).toBe(1);
    expect(await pendingIds(storage)).toEqual([late.event_id]);
    const chain = await storage.listRecords({ namespace: NS, strategy: 'compaction', limit: 10 });
    expect(chain.total).toBe(3);
    expect(await buffer.compactionStatus(NS)).toMatchObject({
      head: { recordId: third!.recordId, pass: 3, facts: 2 },
      lastError: expect.stringMatching(/nothing compacted/),
    });
    expect(buffer.status().projects[0]!.next?.trigger).toBe('retry');
  });
});

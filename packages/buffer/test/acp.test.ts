import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAcpExtractor, type Extractor } from '@kiro-learn/extractor';
import { type TestAgentMode, testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuffer } from '../src/index.js';
import { event, ingest, NS, pendingIds, tempStorage, track } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'kl-buffer-acp-'));
const pidFile = join(dir, 'pids');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function agent(mode: TestAgentMode | 'missing'): Extractor {
  return createAcpExtractor({
    command: mode === 'missing' ? ['kiro-learn-no-such-agent', 'acp'] : testAgentCommand(mode),
    env: { ...process.env, KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile },
    // Only the hanging agent should time out: on a loaded machine a Node agent can take
    // more than 2 s just to start, which failed the other modes with a timeout.
    timeoutMs: mode === 'hang' ? 2000 : 30_000,
    killGraceMs: 200,
  });
}

const agentPids = () =>
  existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number) : [];

describe('buffer driving the real ACP client and test agent', () => {
  it('keeps the batch pending through every agent failure, keeps serving, and extracts once the agent works', async () => {
    const { storage } = await tempStorage();
    let extractor = agent('garbage');
    const buffer = track(
      createBuffer({
        storage,
        extract: (batch) => extractor.extract(batch),
        extractorName: 'acp',
        // No automatic retries: this test drives each attempt with extractNow.
        options: { idleMs: 600_000, retryMs: 600_000, breakerFailures: 10 },
      }),
    );
    const turn = [
      await ingest(storage, buffer, event('prompt', 'why do the webhook tests fail?')),
      await ingest(storage, buffer, event('tool_use', 'pnpm vitest run')),
    ];
    const ids = turn.map((e) => e.event_id);

    const failures: Array<[TestAgentMode | 'missing', RegExp]> = [
      ['garbage', /no usable reply after 3 attempts/],
      ['crash', /agent exited \(code 70\).*crashing mid-turn/],
      ['exit', /agent exited \(code 2\).*refusing to start/],
      ['hang', /did not reply within 2000 ms/],
      ['missing', /cannot start the agent kiro-learn-no-such-agent/],
    ];
    let extra: string[] = [];
    for (const [mode, error] of failures) {
      extractor = agent(mode);
      const running = buffer.extractNow(NS);
      if (mode === 'hang') {
        // While the agent hangs, the collector's work goes on: events are stored and buffered.
        const late = await ingest(storage, buffer, event('note', 'arrived during the hang'));
        extra = [late.event_id];
        expect(buffer.status().projects[0]).toMatchObject({ extracting: true });
      }
      const run = await running;
      expect(run.status, mode).toBe('failed');
      expect(run.error, mode).toMatch(error);
      expect(await pendingIds(storage), mode).toEqual([...ids, ...extra]);
    }
    const logged = await storage.listExtractions({ namespace: NS, limit: 10 });
    expect(logged.map((entry) => [entry.status, entry.attempts])).toEqual([
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
      ['failed', 1],
      ['failed', 3],
    ]);
    expect(buffer.status().projects[0]!.breaker).toMatchObject({
      state: 'closed',
      consecutiveFailures: 5,
    });

    extractor = agent('records');
    const ok = await buffer.extractNow(NS);
    expect(ok).toMatchObject({ status: 'ok', records: 2, extractor: 'acp' });
    expect(await pendingIds(storage)).toEqual([]);
    const stored = await storage.getRecords(ok.recordIds);
    expect(stored[0]!.title).toBe('Test agent summary: why do the webhook tests fail?');
    expect(stored[0]!.source_event_ids).toEqual([...ids, ...extra]);

    // Every agent process is gone from the process table: exited and reaped.
    const pids = agentPids();
    expect(pids.length).toBeGreaterThanOrEqual(7);
    expect(pids.filter((pid) => existsSync(`/proc/${pid}`))).toEqual([]);
  });
});

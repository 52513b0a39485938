import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBuiltinExtractor } from '@kiro-learn/extractor';
import { openSqliteStorage } from '@kiro-learn/storage';
import { describe, expect, it } from 'vitest';
import { createBuffer } from '../src/index.js';
import { event, NS, pendingIds, runs, tempStorage, track } from './helpers.js';

// The "collector": stores a turn, and its buffer starts extracting it with an agent that
// hangs. Runs from the built packages (turbo builds them before tests).
const collector = `
import { openSqliteStorage } from '@kiro-learn/storage';
import { createBuffer } from '@kiro-learn/buffer';
import { createAcpExtractor } from '@kiro-learn/extractor';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
const [path, events] = process.argv.slice(1);
const storage = await openSqliteStorage({ path });
const extractor = createAcpExtractor({ command: testAgentCommand('hang') });
const buffer = createBuffer({ storage, extract: (batch) => extractor.extract(batch) });
for (const event of JSON.parse(events)) {
  await storage.putEvent(event, { pending: true });
  buffer.notify(event);
}
setInterval(() => {}, 60_000);
`;

/** Polls (bounded) until `check` holds; the test fails with a clear message otherwise. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await sleep(25);
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe('collector killed during an extraction', () => {
  it('extracts the pending events after a restart', async () => {
    const { storage: setup, path, dir } = await tempStorage();
    await setup.close();
    const pidFile = join(dir, 'agent-pids');
    const turn = [
      event('prompt', 'rename the config loader'),
      {
        ...event('tool_use'),
        body: {
          type: 'json' as const,
          data: {
            tool_name: 'fs_write',
            tool_input: { command: 'create', path: 'src/config/load.ts', file_text: 'export {}' },
            tool_response: { success: true },
          },
        },
      },
      event('session_summary', ''),
    ];
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', collector, path, JSON.stringify(turn)],
      {
        cwd: new URL('..', import.meta.url).pathname,
        env: { ...process.env, KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // The agent has started: the extraction is in flight.
    await until('the compressor agent to start', () => existsSync(pidFile));
    child.kill('SIGKILL');
    await exited;

    const storage = await openSqliteStorage({ path });
    try {
      expect(await pendingIds(storage)).toEqual(turn.map((e) => e.event_id));
      const extractor = createBuiltinExtractor();
      const buffer = track(createBuffer({ storage, extract: (batch) => extractor.extract(batch) }));
      const done = runs(buffer);
      await buffer.start();
      const [run] = await done;
      expect(run).toMatchObject({ trigger: 'startup', status: 'ok', batchSize: 3 });
      const [record] = await storage.getRecords(run!.recordIds);
      expect(record).toMatchObject({
        namespace: NS,
        title: 'rename the config loader — edited src/config/load.ts',
        observation_type: 'session_summary',
      });
      expect(await pendingIds(storage)).toEqual([]);
      await buffer.drain();
    } finally {
      await storage.close();
    }
    // The orphaned agent saw its stdin close and exited.
    const agent = Number(readFileSync(pidFile, 'utf8').trim());
    await until('the orphaned agent to exit', () => {
      try {
        return /\) [ZX] /.test(readFileSync(`/proc/${agent}/stat`, 'utf8'));
      } catch {
        return true;
      }
    });
  });
});

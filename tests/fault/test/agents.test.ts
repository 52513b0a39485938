import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alive,
  envFor,
  freePort,
  makeEvent,
  NO_MODEL,
  removeHomes,
  spawnCollector,
  tempHome,
} from './harness.js';

const agentPids: number[] = [];
afterEach(() => {
  for (const pid of agentPids.splice(0).filter(alive)) process.kill(pid, 'SIGKILL');
  removeHomes();
});

describe('extraction agents of a collector killed with -9', () => {
  it('are stopped when the next collector starts, even one that ignores SIGTERM', async () => {
    const home = tempHome();
    const port = await freePort();
    const pidFile = join(home, 'agent-pids');
    const env = envFor(home, port, {
      ...NO_MODEL,
      KIRO_LEARN_EXTRACTOR: 'acp',
      KIRO_LEARN_COMPRESSOR_COMMAND: testAgentCommand('stubborn').join(' '),
      KIRO_LEARN_TEST_AGENT_PIDFILE: pidFile,
    });
    const first = await spawnCollector(env, port);
    const res = await fetch(`http://127.0.0.1:${port}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(makeEvent({ kind: 'session_summary' })),
    });
    expect(res.status).toBe(200);
    const started = () => {
      try {
        // The agent may be writing its line as we read: a partial line is not a pid yet.
        return readFileSync(pidFile, 'utf8')
          .split('\n')
          .filter((line) => /^\d+$/.test(line))
          .map(Number);
      } catch {
        return [];
      }
    };
    await expect.poll(() => started().length, { timeout: 20_000 }).toBeGreaterThan(0);
    agentPids.push(...started());
    first.child.kill('SIGKILL');
    await first.exited;
    // Orphaned: the collector is gone, the agent ignores its closed stdin and SIGTERM.
    expect(agentPids.filter(alive)).toEqual(agentPids);

    const second = await spawnCollector({ ...env, KIRO_LEARN_EXTRACTOR: 'builtin' }, port);
    try {
      await expect.poll(() => agentPids.filter(alive), { timeout: 10_000 }).toEqual([]);
      expect(readFileSync(join(home, 'logs', 'collector.log'), 'utf8')).toMatch(
        /stopped extraction agents left by a previous run/,
      );
    } finally {
      await second.stop();
    }
  });
});

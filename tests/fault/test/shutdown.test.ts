import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { testAgentCommand } from '@kiro-learn/extractor/test-agent';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alive,
  envFor,
  flood,
  freePort,
  healthy,
  kiroLearnAsync,
  makeEvent,
  missingAfterRestart,
  NS,
  post,
  removeHomes,
  sleep,
  spawnCollector,
  tempHome,
} from './harness.js';

afterEach(removeHomes);

/** The collector's own limit for a graceful stop (CollectorOptions.shutdownGraceMs). */
const GRACE_MS = 10_000;

/** Keeps a viewer page, the stream and the status endpoint busy until `stop()`. */
function readers(port: number) {
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const get = (path: string) =>
    new Promise<void>((done) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', done);
        res.on('error', () => done());
      });
      req.on('error', () => done());
      req.end();
    });
  const stream = request({ host: '127.0.0.1', port, path: '/v1/stream', agent: false });
  stream.on('response', (res) => res.resume());
  stream.on('error', () => {});
  stream.end();
  const loops = ['/ui/api/projects', '/ui/api/health', '/v1/status'].map(async (path) => {
    while (running) {
      await get(path);
      await sleep(5);
    }
  });
  return async () => {
    running = false;
    stream.destroy();
    await Promise.all(loops);
    agent.destroy();
  };
}

describe('SIGTERM under load', () => {
  it('exits by itself (code 0) within the grace period, round after round, losing nothing acknowledged', async () => {
    const home = tempHome();
    const port = await freePort();
    const env = envFor(home, port);
    const times: number[] = [];
    const acked: string[] = [];
    for (let round = 0; round < 3; round++) {
      const collector = await spawnCollector(env, port);
      const load = flood(port, 8);
      const stopReaders = readers(port);
      while (load.acked.length < 100) await sleep(5);
      const started = performance.now();
      collector.child.kill('SIGTERM');
      const hang = sleep(GRACE_MS * 3).then(() => 'still running' as const);
      const exit = await Promise.race([collector.exited, hang]);
      times.push(performance.now() - started);
      await Promise.all([load.stop(), stopReaders()]);
      acked.push(...load.acked);
      if (exit === 'still running') collector.child.kill('SIGKILL');
      expect(exit).toEqual({ code: 0, signal: null });
    }
    console.log(
      `SIGTERM under load: shutdown took ${times.map((t) => `${Math.round(t)} ms`).join(', ')} (grace ${GRACE_MS} ms)`,
    );
    expect(await missingAfterRestart(env, port, acked)).toEqual([]);
  });

  it('stops an extraction agent that ignores SIGTERM; a second `stop` meanwhile never says "not running"', async () => {
    const home = tempHome();
    const port = await freePort();
    const agentPids = join(home, 'agent-pids');
    const env = envFor(home, port, {
      KIRO_LEARN_EXTRACTOR: 'acp',
      KIRO_LEARN_COMPRESSOR_COMMAND: testAgentCommand('stubborn').join(' '),
      KIRO_LEARN_TEST_AGENT_PIDFILE: agentPids,
    });
    const collector = await spawnCollector(env, port);
    const agent = new Agent({ keepAlive: false });
    // A turn end starts an extraction at once; the stubborn agent never answers.
    expect(await post(agent, port, '/v1/events', makeEvent({ kind: 'session_summary' }))).toBe(200);
    await expect
      .poll(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/v1/status`);
          const body = (await res.json()) as {
            projects: Array<{ namespace: string; extracting: boolean }>;
          };
          return body.projects.find((p) => p.namespace === NS)?.extracting;
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    const first = kiroLearnAsync(['stop'], env);
    // Shutting down: no longer answering, still running (the stubborn agent holds it up).
    await expect.poll(() => healthy(port), { timeout: 20_000 }).toBe(false);
    expect(alive(collector.pid)).toBe(true);
    const second = await kiroLearnAsync(['stop'], env);
    if (/not running/.test(second.stdout)) {
      // Only right if it looked after the collector had let go of everything: it is gone
      // (or exiting) by now. (On a slow machine the CLI may start that late.)
      const gone = await Promise.race([
        collector.exited.then(() => true),
        sleep(2000).then(() => false),
      ]);
      expect(gone, second.stdout).toBe(true);
    } else {
      expect(second.stdout).toMatch(/stopped \(pid \d+\)/);
    }
    expect((await first).stdout).toMatch(/stopped \(pid \d+\)/);
    expect(await collector.exited).toEqual({ code: 0, signal: null });
    const agents = readFileSync(agentPids, 'utf8').trim().split('\n').map(Number);
    expect(agents.filter(alive)).toEqual([]);
  });
});

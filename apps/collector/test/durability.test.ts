import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { envFor, freePort, post, spawnCollector, tempHome } from '@kiro-learn/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEvent, send } from './helpers.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Sends events from `clients` keep-alive clients until `stop()`; returns the acknowledged ids. */
function flood(port: number, clients: number) {
  const acked: string[] = [];
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loops = Array.from({ length: clients }, async (_, i) => {
    while (running) {
      const event = makeEvent({ session_id: `client-${i}` });
      const status = await post(agent, port, '/v1/events', event);
      if (status === 200) acked.push(event.event_id);
      else if (status === 0) return; // the collector is gone
    }
  });
  return {
    acked,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

async function missing(port: number, ids: string[]): Promise<string[]> {
  const gone: string[] = [];
  for (const id of ids)
    if ((await send(port, 'GET', `/v1/events/${id}`)).status !== 200) gone.push(id);
  return gone;
}

describe('durability', () => {
  it('keeps every acknowledged event when the collector is SIGKILLed mid-stream', async () => {
    home = tempHome();
    const port = await freePort();
    const env = envFor(home, port);
    const first = await spawnCollector(env, port);
    const load = flood(port, 8);
    while (load.acked.length < 300) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await load.stop();
    const acked = [...load.acked];
    expect(acked.length).toBeGreaterThanOrEqual(300);

    const second = await spawnCollector(env, port);
    try {
      expect(await missing(port, acked)).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('finishes in-flight requests on SIGTERM, exits 0 and loses nothing it acknowledged', async () => {
    home = tempHome();
    const port = await freePort();
    const env = envFor(home, port);
    const first = await spawnCollector(env, port);
    const load = flood(port, 16);
    while (load.acked.length < 100) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    await load.stop();
    expect(first.output()).toMatch(/SIGTERM: finishing in-flight requests/);

    const second = await spawnCollector(env, port);
    try {
      expect(await missing(port, [...load.acked])).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});

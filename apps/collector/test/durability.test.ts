import { rmSync } from 'node:fs';
import {
  envFor,
  flood as floodEvents,
  freePort,
  missingAfterRestart,
  spawnCollector,
  tempHome,
} from '@kiro-learn/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEvent } from './helpers.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Events from `clients` keep-alive clients, one session each, until `stop()`. */
const flood = (port: number, clients: number) =>
  floodEvents(port, clients, (client) => makeEvent({ session_id: `client-${client}` }));

/** A collector on a fresh data dir, and `clients` clients flooding it. */
async function flooded(clients: number) {
  home = tempHome();
  const port = await freePort();
  const env = envFor(home, port);
  const first = await spawnCollector(env, port);
  return { port, env, first, load: flood(port, clients) };
}

describe('durability', () => {
  it('keeps every acknowledged event when the collector is SIGKILLed mid-stream', async () => {
    const { port, env, first, load } = await flooded(8);
    while (load.acked.length < 300) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await load.stop();
    const acked = [...load.acked];
    expect(acked.length).toBeGreaterThanOrEqual(300);

    expect(await missingAfterRestart(env, port, acked)).toEqual([]);
  });

  it('finishes in-flight requests on SIGTERM, exits 0 and loses nothing it acknowledged', async () => {
    const { port, env, first, load } = await flooded(16);
    while (load.acked.length < 100) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    await load.stop();
    expect(first.output()).toMatch(/SIGTERM: finishing in-flight requests/);

    expect(await missingAfterRestart(env, port, [...load.acked])).toEqual([]);
  });
});

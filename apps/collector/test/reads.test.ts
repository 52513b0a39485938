import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../src/daemon.js';
import { makeEvent, NS, send } from './helpers.js';

// Reads of lists, totals and logs run on a thread of their own: on the collector's
// connection, better-sqlite3 runs a query synchronously and the whole event loop (ingest,
// hooks, prompts) waits for it. A database with a long retrieval log makes the viewer's
// health screen (the newest 20,000 retrievals, for its latency chart) a read of tenths of a
// second: long enough to see what waits for it.
let home: string;
let daemon: Daemon;
let port: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kl-reads-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ semantic: { enabled: false } }));
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const query = 'why does the stripe webhook signature check fail in staging? '.repeat(64);
  for (let i = 0; i < 30; i++) {
    await Promise.all(
      Array.from({ length: 1000 }, (_, j) =>
        storage.logRetrieval({
          namespace: NS,
          query: `${i}-${j} ${query}`,
          recordIds: ['01JDQ0000000000000000000AA', '01JDQ0000000000000000000AB'],
          scores: [0.9, 0.4],
          latencyMs: 5 + (j % 40),
          timedOut: false,
          budgetCut: false,
        }),
      ),
    );
  }
  await storage.close();
  daemon = await startDaemon({
    env: { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: '0' },
  });
  port = Number(new URL(daemon.url).port);
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('reads off the event loop', () => {
  it('an event posted while the viewer reads a large log is answered before that read', async () => {
    const finished: string[] = [];
    const health = send(port, 'GET', '/ui/api/health').then((reply) => {
      finished.push('health');
      return reply;
    });
    // Let the read get under way (on the loop, it would now hold every request back).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ingest = send(port, 'POST', '/v1/events', { body: makeEvent() }).then((reply) => {
      finished.push('ingest');
      return reply;
    });
    const [read, stored] = await Promise.all([health, ingest]);
    expect(stored.status).toBe(200);
    expect(read.status).toBe(200);
    expect(read.json.latency.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(
      20_000,
    );
    expect(finished).toEqual(['ingest', 'health']);
  });

  it('stats and lists read from the reader see what was just stored', async () => {
    const event = makeEvent({ kind: 'prompt', body: { type: 'text', content: 'hello' } });
    expect((await send(port, 'POST', '/v1/events', { body: event })).status).toBe(200);
    const stats = await send(port, 'GET', `/v1/stats?namespace=${encodeURIComponent(NS)}`);
    expect(stats.json.events.by_kind.prompt).toBe(1);
    const listed = await send(port, 'GET', '/v1/events?kind=prompt&limit=5');
    expect(listed.json.items.map((e: { event_id: string }) => e.event_id)).toEqual([
      event.event_id,
    ]);
  });
});

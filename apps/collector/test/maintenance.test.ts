// Retention and daily backups on a fake clock (injected, never slept on), over real SQLite.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryRecord, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeSettings } from '../src/config/settings.js';
import { dailyBackups } from '../src/data/backups.js';
import { startMaintenance } from '../src/data/maintenance.js';
import { silentLogger } from '../src/log/logger.js';
import { makeEvent, NS, type Running, send, startCollector } from './helpers.js';

const DAY = 86_400_000;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data dir and its SQLite store, both gone after the test. */
async function tempStore() {
  const home = mkdtempSync(join(tmpdir(), 'kl-maint-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  cleanups.push(() => storage.close());
  return { home, storage };
}

describe('daily maintenance', () => {
  it('backs up once a day keeping the last N, and drops events past maxAgeDays by the clock', async () => {
    const { home, storage } = await tempStore();
    const settings = normalizeSettings(
      {
        retention: {
          events: { maxAgeDays: 7 },
          projects: { '/actor/dev/project/keep-all/': { events: { maxAgeDays: 0 } } },
        },
        backup: { keep: 2 },
      },
      home,
    );
    let now = Date.parse('2030-01-10T03:00:00Z');
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
    const old = makeEvent();
    const recent = makeEvent();
    const kept = makeEvent({ namespace: '/actor/dev/project/keep-all/' });
    await storage.putEvent(old, { receivedAt: at(10) });
    await storage.putEvent(recent, { receivedAt: at(1) });
    await storage.putEvent(kept, { receivedAt: at(400) });

    const maintenance = startMaintenance({
      storage,
      settings,
      logger: silentLogger,
      now: () => now,
      checkEveryMs: 1e9,
    });
    cleanups.push(() => maintenance.stop());
    const first = await maintenance.tick();
    expect(first?.errors).toEqual([]);
    expect(first?.retention).toEqual([
      expect.objectContaining({
        scope: NS,
        rule: 'maxAgeDays=7',
        counts: expect.objectContaining({ events: 1 }),
      }),
    ]);
    expect(await storage.getEvent(old.event_id)).toBeUndefined();
    expect(await storage.getEvent(recent.event_id)).toBeDefined();
    expect(await storage.getEvent(kept.event_id)).toBeDefined();
    expect(existsSync(first!.backup!.path)).toBe(true);

    // Later the same day: nothing to do.
    now += 5 * 3_600_000;
    expect(await maintenance.tick()).toBeUndefined();

    // A week on: a backup each day, all but the last two deleted; yesterday's event is
    // now past seven days.
    for (let day = 0; day < 7; day++) {
      now += DAY;
      await maintenance.tick();
    }
    expect(dailyBackups(home)).toHaveLength(2);
    expect(await storage.getEvent(recent.event_id)).toBeUndefined();
  });
});

describe('stopping during the daily backup', () => {
  it('abandons the copy (shutdown does not wait for it): no backup, no partial file, the day left to do', async () => {
    const { home, storage } = await tempStore();
    // About 40 MB: the copy takes many steps of 1,000 pages.
    const content = 'npm test output '.repeat(500);
    for (let i = 0; i < 5; i++) {
      await Promise.all(
        Array.from({ length: 1000 }, () =>
          storage.putEvent(makeEvent({ body: { type: 'text', content } })),
        ),
      );
    }
    const settings = normalizeSettings({ backup: { keep: 1 } }, home);
    const maintenance = startMaintenance({
      storage,
      settings,
      logger: silentLogger,
      now: () => Date.parse('2030-01-10T03:00:00Z'),
      checkEveryMs: 1e9,
    });
    const run = maintenance.tick();
    await maintenance.stop();
    expect(await run).toBeUndefined();
    expect(dailyBackups(home)).toEqual([]);
    expect(readdirSync(join(home, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual([]);
    expect(existsSync(join(home, 'maintenance.json'))).toBe(false);
    expect((await storage.stats()).events.total).toBe(5000);
  });
});

describe('POST /v1/gc', () => {
  let r: Running;
  it('counts with dry_run and deletes without it, by the collector clock', async () => {
    const now = Date.parse('2030-06-01T00:00:00Z');
    r = await startCollector({ retention: { events: { maxAgeDays: 30 } } }, { now: () => now });
    cleanups.push(() => r.close());
    const storage = await openSqliteStorage({ path: r.dbPath });
    await storage.putEvent(makeEvent(), { receivedAt: new Date(now - 40 * DAY).toISOString() });
    await storage.putEvent(makeEvent(), { receivedAt: new Date(now - 3 * DAY).toISOString() });
    await storage.close();
    const dry = await send(r.port, 'POST', '/v1/gc', { body: { dry_run: true } });
    expect(dry.json).toMatchObject({
      dry_run: true,
      steps: [{ scope: NS, rule: 'maxAgeDays=30' }],
    });
    expect(dry.json.steps[0].counts.events).toBe(1);
    expect((await send(r.port, 'GET', '/v1/stats')).json.events.total).toBe(2);
    const done = await send(r.port, 'POST', '/v1/gc', { body: {} });
    expect(done.json.steps[0].counts.events).toBe(1);
    expect((await send(r.port, 'GET', '/v1/stats')).json.events.total).toBe(1);
  });
});

describe('gc of question-only records left by earlier versions', () => {
  it('reports them, removes them after saving them to a file, and the file imports them back', async () => {
    const r = await startCollector();
    cleanups.push(() => r.close());
    const record = (title: string, summary: string, extra: Partial<MemoryRecord> = {}) => ({
      ...newRecord({
        namespace: NS,
        strategy: 'builtin',
        title,
        summary,
        observation_type: 'session_summary' as const,
      }),
      ...extra,
    });
    const asked = [
      record(
        'which file did we change?',
        'Request: which file did we change?\nNo tools were used.',
      ),
      record('continue', 'Request: continue\n(The turn had not ended when this was written.)'),
    ];
    const kept = [
      record(
        'Which port does the dev server use?',
        'Request: Which port does the dev server use?\nOutcome: 5173.',
      ),
      record('Fix the login test', 'Request: fix the login test', {
        files_touched: ['src/auth.ts'],
      }),
      record('Asked about ports', 'Request: which port?', { strategy: 'llm-summary' }),
    ];
    for (const body of [...asked, ...kept]) {
      expect((await send(r.port, 'POST', '/v1/memories', { body })).status).toBe(200);
    }
    const dry = await send(r.port, 'POST', '/v1/gc', { body: { dry_run: true } });
    expect(dry.json.question_only).toEqual({
      records: 2,
      projects: [{ namespace: NS, records: 2 }],
    });
    expect((await send(r.port, 'GET', '/v1/stats')).json.memories.total).toBe(5);

    const done = await send(r.port, 'POST', '/v1/gc', { body: {} });
    expect(done.json.question_only).toMatchObject({ records: 2 });
    const file = done.json.question_only.file as string;
    expect(existsSync(file)).toBe(true);
    const ids = async () =>
      (
        (await send(r.port, 'GET', `/v1/memories?namespace=${encodeURIComponent(NS)}`)).json
          .items as MemoryRecord[]
      )
        .map((m) => m.record_id)
        .sort();
    expect(await ids()).toEqual(kept.map((m) => m.record_id).sort());
    expect((await send(r.port, 'POST', '/v1/gc', { body: {} })).json.question_only.records).toBe(0);

    const restored = await send(r.port, 'POST', '/v1/import', {
      body: readFileSync(file, 'utf8'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(restored.json.added.records).toBe(2);
    expect(await ids()).toEqual([...asked, ...kept].map((m) => m.record_id).sort());
  });
});

/**
 * The search index's backlog (records not yet in the impact-ordered postings) as a user
 * sees it: `/v1/status` (what `kiro-learn status` prints), `/metrics` and the viewer's
 * health screen, over a real SQLite file and a real HTTP server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { cliAsync } from '@kiro-learn/test-harness';
import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createCollector } from '../src/app.js';
import { searchBacklogLine } from '../src/commands/status.js';
import { normalizeSettings } from '../src/config/settings.js';
import { startDaemon } from '../src/daemon.js';
import { searchBacklog } from '../src/search-backlog.js';
import { viewerApp } from '../src/viewer/index.js';
import { NS, send } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const record = (title: string) =>
  newRecord({
    namespace: NS,
    strategy: 'mcp_observation',
    title,
    summary: `${title}: what was learned.`,
    observation_type: 'discovery',
  });

describe('the search index backlog', () => {
  it('shows in status, /metrics and the health screen while records wait, and goes once they are indexed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kl-backlog-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const path = join(home, 'kiro-learn.db');
    const storage = await openSqliteStorage({ path });
    for (const title of ['Refunds go through the ledger', 'Money is integer cents', 'Retry once'])
      await storage.putRecord(record(title));
    // As an upgrade leaves a database (or another process's bulk write): every record
    // queued for the index, none in it. Written through another connection, so this
    // collector's storage has no reason to index them until its next write. That connection
    // stays open to the end: closing it commits its (empty) write queue, which indexes them.
    const other = await openSqliteStorage({ path });
    cleanups.push(() => other.close());
    await sql`DELETE FROM impact_postings`.execute(other.db);
    await sql`INSERT OR IGNORE INTO impact_queue (rid) SELECT rid FROM memory_records`.execute(
      other.db,
    );

    const settings = normalizeSettings({ port: 0 }, home);
    const backlog = searchBacklog(storage);
    const collector = createCollector({
      storage,
      settings,
      searchBacklog: backlog,
      ui: viewerApp({
        storage,
        version: '0.1.0',
        startedAt: Date.now(),
        extractor: () => 'built-in',
        searchBacklog: backlog,
      }),
    });
    const { port } = await collector.listen();
    cleanups.push(() => collector.close());
    const status = async () => (await send(port, 'GET', '/v1/status')).json;
    const metrics = () => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
    const health = async () => (await send(port, 'GET', '/ui/api/health')).json;

    expect((await status()).search_backlog).toBe(3);
    expect(searchBacklogLine((await status()).search_backlog)).toBe(
      'search index: 3 records still being indexed (searches are slower until it finishes)',
    );
    expect(await metrics()).toMatch(/^kiro_learn_search_index_backlog_records 3$/m);
    expect((await health()).search_backlog).toBe(3);

    // A write indexes queued records after its batch.
    expect(
      (await send(port, 'POST', '/v1/memories', { body: record('Cache for 60 s') })).status,
    ).toBe(200);
    await expect
      .poll(async () => (await status()).search_backlog, { timeout: 20_000, interval: 250 })
      .toBe(0);
    expect(searchBacklogLine((await status()).search_backlog)).toBeUndefined();
    expect(await metrics()).toMatch(/^kiro_learn_search_index_backlog_records 0$/m);
    expect((await health()).search_backlog).toBeUndefined();
  });

  it('on PostgreSQL, shows in kiro-learn status and /metrics while an upgrade indexes records in the background', async () => {
    const url = inject('postgresUrl');
    const schema = freshSchema();
    const seed = await openPostgresStorage({ url, schema, impactBackfill: false });
    for (const title of ['Refunds go through the ledger', 'Money is integer cents', 'Retry once'])
      await seed.putRecord(record(title));
    // As migration 0017 leaves a database upgraded from before 0014: every record queued.
    await sql`DELETE FROM impact_postings`.execute(seed.db);
    await sql`INSERT INTO impact_queue (record_id) SELECT record_id FROM memory_records`.execute(
      seed.db,
    );
    await seed.close();
    // A writer holding every record: the backfill skips held records, so they stay queued.
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    cleanups.push(() => writer.end());
    await writer.query('BEGIN');
    await writer.query(`SELECT 1 FROM "${schema}".memory_records FOR UPDATE`);

    const home = mkdtempSync(join(tmpdir(), 'kl-backlog-pg-'));
    writeFileSync(
      join(home, 'settings.json'),
      JSON.stringify({
        storage: { schema },
        extraction: { mode: 'builtin' },
        semantic: { enabled: false },
      }),
    );
    const env = {
      ...process.env,
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_PORT: '0',
      KIRO_LEARN_STORAGE_URL: url,
    };
    const daemon = await startDaemon({ env });
    cleanups.push(async () => {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    });
    const port = Number(new URL(daemon.url).port);
    const cliEnv = { ...env, KIRO_LEARN_PORT: String(port) };
    const metrics = () => fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());

    const printed = await cliAsync(['status'], cliEnv);
    expect(printed.stdout).toContain(
      '  search index: 3 records still being indexed (searches are slower until it finishes)\n',
    );
    expect(JSON.parse((await cliAsync(['status', '--json'], cliEnv)).stdout).search_backlog).toBe(
      3,
    );
    expect(await metrics()).toMatch(/^kiro_learn_search_index_backlog_records 3$/m);
    expect((await send(port, 'GET', '/ui/api/health')).json.search_backlog).toBe(3);

    // The writer lets go: a later pass of the backfill indexes them.
    await writer.query('COMMIT');
    await expect
      .poll(async () => (await send(port, 'GET', '/v1/status')).json.search_backlog, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(0);
    expect((await cliAsync(['status'], cliEnv)).stdout).not.toContain('search index');
    expect(await metrics()).toMatch(/^kiro_learn_search_index_backlog_records 0$/m);
  });
});

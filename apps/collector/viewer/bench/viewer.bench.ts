// Viewer benchmark: how long a posted event takes to show in the live feed (headless
// Chromium), and how fast the viewer's reads answer over a large database. Prints median
// and p99 beside a bare HTTP echo measured in the same run; asserts nothing.
// Records: VIEWER_BENCH_RECORDS (default 100000).

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  buildNamespace,
  type Event,
  type MemoryRecord,
  newEventId,
  newRecordId,
  OBSERVATION_TYPES,
} from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { chromium } from 'playwright-core';
import { it } from 'vitest';
import { createCollector } from '../../src/app.js';
import { loadSettings } from '../../src/config/load.js';
import { viewerApp } from '../../src/viewer/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../../test/chromium.js';

const RECORDS = Number(process.env['VIEWER_BENCH_RECORDS'] ?? 100_000);
const WORDS =
  'invoice ledger rounding refund cache retry schema migration token parser queue index'.split(' ');
const NAMESPACES = Array.from({ length: 8 }, (_, i) => buildNamespace('dev', `project-${i}`));

function stats(samples: number[]): { median: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { median: at(50), p99: at(99) };
}

function line(name: string, samples: number[], baseline: { median: number; p99: number }): void {
  const { median, p99 } = stats(samples);
  console.log(
    `${name.padEnd(44)} median ${median.toFixed(2).padStart(8)} ms  p99 ${p99.toFixed(2).padStart(8)} ms   (echo baseline median ${baseline.median.toFixed(2)} ms, p99 ${baseline.p99.toFixed(2)} ms; n=${samples.length})`,
  );
}

async function time(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

function event(content: string, namespace: string): Event {
  return {
    event_id: newEventId(),
    session_id: 'bench',
    actor_id: 'dev',
    namespace,
    schema_version: 1,
    kind: 'prompt',
    body: { type: 'text', content },
    valid_time: new Date().toISOString(),
    source: { surface: 'api', version: '1', client_id: 'bench' },
  };
}

it('viewer benchmark', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kiro-learn-viewer-bench-'));
  const echo = createServer((req, res) => res.end(req.url));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
  try {
    await promisify(execFile)(process.execPath, [
      join(import.meta.dirname, '../build.mjs'),
      join(dir, 'ui'),
    ]);
    const dbPath = join(dir, 'kiro-learn.db');
    const seeding = await openSqliteStorage({ path: dbPath });
    const started = performance.now();
    const day = 24 * 3600_000;
    for (let done = 0; done < RECORDS; done += 5000) {
      const records: MemoryRecord[] = [];
      for (let i = done; i < Math.min(RECORDS, done + 5000); i++) {
        const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length]!;
        records.push({
          record_id: newRecordId(),
          namespace: NAMESPACES[i % NAMESPACES.length]!,
          strategy: 'builtin',
          title: `${w(0)} ${w(1)} note ${i}`,
          summary: `How the ${w(2)} and the ${w(3)} interact, observation ${i}.`,
          facts: [`${w(4)} uses ${w(5)}`],
          concepts: [w(6)],
          files_touched: [`src/${w(7)}/${i % 500}.ts`],
          observation_type: OBSERVATION_TYPES[i % OBSERVATION_TYPES.length]!,
          source_event_ids: [newEventId()],
          created_at: new Date(Date.now() - (i % 365) * day - i).toISOString(),
        });
      }
      await seeding.commitExtraction({ namespace: records[0]!.namespace, records, eventIds: [] });
    }
    for (let i = 0; i < 200; i++) {
      await seeding.logRetrieval({
        namespace: NAMESPACES[0]!,
        query: 'bench',
        recordIds: [],
        scores: [],
        latencyMs: 3 + (i % 20),
        timedOut: false,
        budgetCut: false,
      });
    }
    await seeding.close();
    console.log(
      `seeded ${RECORDS} records in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const { config: settings } = loadSettings({ KIRO_LEARN_HOME: dir, KIRO_LEARN_PORT: '0' });
    const storage = await openSqliteStorage({ path: dbPath });
    const collector = createCollector({
      storage,
      settings: settings!,
      ui: viewerApp({
        storage,
        version: 'bench',
        startedAt: Date.now(),
        extractor: () => 'none',
        assetsDir: join(dir, 'ui'),
      }),
    });
    const { url } = await collector.listen();
    const get = (path: string) => async () => {
      const response = await fetch(`${url}${path}`);
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      await response.arrayBuffer();
    };

    const baseline = stats(await time(300, async () => (await fetch(echoUrl)).text()));
    const ns = encodeURIComponent(NAMESPACES[3]!);
    const reads: Array<[string, string]> = [
      ['memories, first page', '/ui/api/memories?limit=50'],
      ['memories, page 1000 (offset 49950)', '/ui/api/memories?limit=50&offset=49950'],
      ['memories, project + type filter', `/ui/api/memories?namespace=${ns}&type=error&limit=50`],
      ['memories, date range', '/ui/api/memories?since=2026-03-01&until=2026-03-31&limit=50'],
      ['search "ledger rounding" (/v1)', '/v1/memories/search?query=ledger%20rounding&limit=100'],
      ['record source events', ''],
      ['projects', '/ui/api/projects'],
      ['health', '/ui/api/health'],
      ['activity (live first fill)', '/ui/api/activity?limit=100'],
    ];
    const first = (
      (await (await fetch(`${url}/ui/api/memories?limit=1`)).json()) as { items: MemoryRecord[] }
    ).items[0]!;
    for (const [name, path] of reads) {
      const target = path || `/ui/api/memories/${first.record_id}/sources`;
      await get(target)();
      line(name, await time(30, get(target)), baseline);
    }

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${url}/ui/`);
    await page.locator('#stream.live').waitFor();
    // The page notes (epoch ms, sub-millisecond) when each marker's row appears.
    await page.evaluate(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('ol.feed')?.textContent ?? '';
        for (const m of text.matchAll(/bench-marker-\d+-end/g)) {
          seen[m[0]] ??= performance.timeOrigin + performance.now();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
    const live: number[] = [];
    for (let i = 0; i < 40; i++) {
      const marker = `bench-marker-${i}-end`;
      const sent = performance.timeOrigin + performance.now();
      await fetch(`${url}/v1/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(event(marker, NAMESPACES[0]!)),
      });
      const shown = await page.waitForFunction(
        (m) => (window as unknown as { seen: Record<string, number> }).seen[m],
        marker,
      );
      live.push((await shown.jsonValue())! - sent);
    }
    line('live feed: POST → row in the page', live, baseline);
    await browser.close();
    await collector.close();
  } finally {
    echo.close();
    await rm(dir, { recursive: true, force: true });
  }
});

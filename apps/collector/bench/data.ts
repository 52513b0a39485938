// Export and import benchmark: GET /v1/export and POST /v1/import (the routes the CLI
// uses, in-process) over a database of BENCH_EVENTS realistic events (default 1,000,000)
// plus 1 record per 20 events. Prints events/s, the time per 1000 lines (median, p99) and
// the peak RSS of each phase, beside the machine's own baselines measured in the same
// run: `node -e ''` start-up, and reading the export file and JSON.parse-ing every line
// (the least any import must do). Asserts nothing.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { createCollector, normalizeSettings } from 'kiro-learn';
import { nodeStarts } from './harness.ts';

const EVENTS = Number(process.env['BENCH_EVENTS'] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'kl-bench-data-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Peak RSS while `run` runs, sampled every 50 ms. */
async function measured<T>(
  run: () => Promise<T>,
): Promise<{ result: T; ms: number; rss: number; before: number }> {
  const before = process.memoryUsage.rss();
  let rss = before;
  const timer = setInterval(() => {
    rss = Math.max(rss, process.memoryUsage.rss());
  }, 50);
  const started = performance.now();
  try {
    const result = await run();
    return {
      result,
      ms: performance.now() - started,
      rss: Math.max(rss, process.memoryUsage.rss()),
      before,
    };
  } finally {
    clearInterval(timer);
  }
}

/** Counts lines as they stream past, and the time per 1000 of them. */
function lineClock() {
  const per1000: number[] = [];
  let lines = 0;
  let mark = performance.now();
  return {
    per1000,
    get lines() {
      return lines;
    },
    count(chunk: Buffer) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) {
        if (++lines % 1000 === 0) {
          const now = performance.now();
          per1000.push(now - mark);
          mark = now;
        }
      }
      return chunk;
    },
  };
}

function event(i: number) {
  return {
    event_id: newEventId(),
    session_id: `bench-session-${Math.floor(i / 200)}`,
    actor_id: 'dev',
    namespace: `/actor/dev/project/project-${i % 5}/`,
    schema_version: 1 as const,
    kind: 'tool_use' as const,
    body: {
      type: 'json' as const,
      data: {
        tool_name: 'fs_write',
        tool_input: {
          path: `src/webhooks/handler-${i % 97}.ts`,
          old_str: 'router.use(express.json());',
          new_str: "router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));",
        },
        tool_response: { success: true, result: [`Replaced 1 occurrence (${i})`] },
      },
    },
    valid_time: new Date(Date.now() - (EVENTS - i) * 1000).toISOString(),
    source: { surface: 'kiro-cli' as const, version: '1.2.0', client_id: 'bench' },
  };
}

// ---- the database to export ----
const sourceDb = join(dir, 'source.db');
{
  const storage = await openSqliteStorage({ path: sourceDb });
  const started = performance.now();
  for (let i = 0; i < EVENTS; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, EVENTS - i) }, (_, k) => event(i + k));
    await Promise.all(batch.map((e) => storage.putEvent(e)));
    await Promise.all(
      batch
        .filter((_, k) => (i + k) % 20 === 0)
        .map((e) =>
          storage.putRecord({
            record_id: newRecordId(),
            namespace: e.namespace,
            strategy: 'builtin',
            title: `Webhook handler ${i} keeps the raw body`,
            summary: 'Stripe signature verification needs the raw request body, not parsed JSON.',
            facts: ['express.raw for /webhooks/stripe'],
            concepts: ['stripe', 'webhooks'],
            files_touched: [e.body.data.tool_input.path],
            observation_type: 'discovery',
            source_event_ids: [e.event_id],
            created_at: e.valid_time,
          }),
        ),
    );
  }
  await storage.close();
  console.log(
    `database: ${EVENTS} events, ${Math.ceil(EVENTS / 20)} records, ${mb(statSync(sourceDb).size)}, built in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

async function collectorOver(path: string) {
  const home = mkdtempSync(join(dir, 'home-'));
  const storage = await openSqliteStorage({ path });
  const collector = createCollector({ storage, settings: normalizeSettings({ port: 0 }, home) });
  const request = (url: string, init: RequestInit = {}) =>
    collector.app.request(url, { ...init, headers: { Host: '127.0.0.1:0', ...init.headers } });
  return { request, close: () => collector.close() };
}

// ---- baselines, same run ----
const starts = nodeStarts(10);

// ---- export ----
const file = join(dir, 'export.jsonl');
const exportClock = lineClock();
const exported = await measured(async () => {
  const source = await collectorOver(sourceDb);
  const response = await source.request('/v1/export');
  await pipeline(
    Readable.fromWeb(response.body as never).map((chunk: Buffer) => exportClock.count(chunk)),
    createWriteStream(file),
  );
  await source.close();
});

// ---- baseline: read the file and parse every line ----
const parseClock = lineClock();
const parsed = await measured(async () => {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    rest += chunk;
    let start = 0;
    for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n', start)) {
      JSON.parse(rest.slice(start, nl));
      start = nl + 1;
    }
    parseClock.count(Buffer.from(rest.slice(0, start)));
    rest = rest.slice(start);
  }
});

// ---- import into an empty data dir ----
const importClock = lineClock();
const imported = await measured(async () => {
  const target = await collectorOver(join(dir, 'target.db'));
  const response = await target.request('/v1/import', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-ndjson' },
    body: Readable.toWeb(
      createReadStream(file).map((chunk: Buffer) => importClock.count(chunk)),
    ) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const report = (await response.json()) as { added: { events: number }; rejected_total: number };
  await target.close();
  return report;
});

const lines = exportClock.lines;
const rate = (ms: number) => `${Math.round((EVENTS / ms) * 1000).toLocaleString('en')} events/s`;
const row = (name: string, phase: { ms: number; rss: number; before: number }, per1000: number[]) =>
  `${name.padEnd(34)} ${rate(phase.ms).padStart(18)}   per 1000 lines p50 ${quantile(per1000, 0.5).toFixed(1)} ms, p99 ${quantile(per1000, 0.99).toFixed(1)} ms   peak RSS ${mb(phase.rss)} (${mb(phase.before)} before)`;
console.log(`export file: ${lines} lines, ${mb(statSync(file).size)}`);
console.log(
  `baseline: node -e '' start-up p50 ${quantile(starts, 0.5).toFixed(0)} ms, p99 ${quantile(starts, 0.99).toFixed(0)} ms`,
);
console.log(row('baseline: read + JSON.parse lines', parsed, parseClock.per1000));
console.log(row('export (GET /v1/export)', exported, exportClock.per1000));
console.log(row('import (POST /v1/import)', imported, importClock.per1000));
console.log(
  `import: added ${imported.result.added.events} events, rejected ${imported.result.rejected_total}`,
);

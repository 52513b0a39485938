// Reads benchmark: how long POST /v1/events takes while the viewer reads a large database
// (its health, projects and activity screens, /v1/stats and an event list filtered by
// kind, back to back, each round from a cold page cache where `dd iflag=nocache` can drop
// it), with those reads on the event loop (`loop`, as before) and on the reader thread
// (`thread`, as the daemon runs). The baseline is the same POSTs with no reads, in the same
// run. Prints the median, p99 and worst POST latency, and the server's event-loop delay
// (p99, max). BENCH_MS sets each phase's length, BENCH_READS the paths read (space-separated).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newEventId } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { httpRequest, quantile, spawnServer } from './harness.ts';

const PHASE_MS = Number(process.env['BENCH_MS'] ?? 5000);
const SERVER = fileURLToPath(new URL('./reads-server.ts', import.meta.url));
const PROJECTS = 20;
const ns = (i: number) => `/actor/dev/project/service-${i % PROJECTS}/`;

/** A database a long-time user has: 30,000 retrievals, 10,000 events of 8 KB, 20 projects. */
async function prepare(path: string): Promise<void> {
  const storage = await openSqliteStorage({ path });
  const query = 'why does the stripe webhook signature check fail in staging? '.repeat(40);
  const filler = 'npm test output line that goes on for a while; '.repeat(160);
  for (let i = 0; i < 30; i++) {
    await Promise.all(
      Array.from({ length: 1000 }, (_, j) =>
        storage.logRetrieval({
          namespace: ns(j),
          query: `${i}-${j} ${query}`,
          recordIds: ['01JDQ0000000000000000000AA'],
          scores: [0.9],
          latencyMs: 5 + (j % 40),
          timedOut: false,
          budgetCut: false,
        }),
      ),
    );
  }
  for (let i = 0; i < 10; i++) {
    await Promise.all(
      Array.from({ length: 1000 }, (_, j) =>
        storage.putEvent(event(ns(j), `${i}-${j} ${filler}`), { pending: j % 4 === 0 }),
      ),
    );
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        storage.logExtraction({
          namespace: ns(j),
          extractor: 'bench',
          status: 'ok',
          batchSize: 20,
          records: 3,
          attempts: 1,
          durationMs: 900,
          startedAt: new Date().toISOString(),
        }),
      ),
    );
  }
  await storage.close();
}

function event(namespace: string, content: string) {
  return {
    event_id: newEventId(),
    session_id: 'bench-session',
    actor_id: 'dev',
    namespace,
    schema_version: 1 as const,
    kind: 'tool_use' as const,
    body: { type: 'text' as const, content },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli' as const, version: '1.2.0', client_id: 'bench' },
  };
}

const call = async (port: number, method: string, path: string, body?: string) =>
  (await httpRequest(port, method, path, body === undefined ? {} : { body })).status;

async function startServer(mode: string, path: string) {
  const server = await spawnServer([SERVER, mode, path]);
  return {
    port: Number(server.first),
    /** The server's event-loop delay since the last call (p99, max in ms). */
    loopDelay: async () => {
      server.child.kill('SIGUSR2');
      return JSON.parse(await server.nextLine()) as { p99: number; max: number };
    },
    stop: () => server.stop(),
  };
}

const VIEWER_READS = process.env['BENCH_READS']?.split(' ') ?? [
  '/ui/api/health',
  '/ui/api/projects',
  '/ui/api/activity?limit=200',
  '/v1/stats',
  // Every project's turn summaries: a scan of the events table (no index has kind first).
  '/v1/events?kind=session_summary&limit=50',
];

/** Drops the database file from the page cache (GNU dd; elsewhere a no-op): a cold read. */
function dropCache(path: string): boolean {
  return (
    spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' }).status === 0
  );
}

/** POSTs one event every 20 ms for PHASE_MS (and the viewer reads meanwhile, if asked). */
async function phase(
  server: Awaited<ReturnType<typeof startServer>>,
  path: string,
  withReads: boolean,
) {
  const { port } = server;
  await server.loopDelay();
  const end = performance.now() + PHASE_MS;
  let reads = 0;
  let failed = 0;
  const reader = (async () => {
    while (withReads && performance.now() < end) {
      dropCache(path);
      for (const path of VIEWER_READS) if ((await call(port, 'GET', path)) !== 200) failed++;
      reads += VIEWER_READS.length;
    }
  })();
  const latencies: number[] = [];
  while (performance.now() < end) {
    const started = performance.now();
    const body = JSON.stringify(event(ns(0), 'ran the tests'));
    if ((await call(port, 'POST', '/v1/events?hook=1', body)) !== 200) failed++;
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await reader;
  const loop = await server.loopDelay();
  latencies.sort((a, b) => a - b);
  return {
    posts: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    reads,
    failed,
    loop,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'kl-bench-reads-'));
const path = join(dir, 'kiro-learn.db');
try {
  await prepare(path);
  console.log(
    `reads benchmark: ${PHASE_MS} ms per phase, Node ${process.version}, ${(statSync(path).size / 2 ** 20).toFixed(0)} MiB database, ${dropCache(path) ? 'cold' : 'warm (no dd to drop the cache)'} reads: ${VIEWER_READS.join(' ')}`,
  );
  console.log(
    ' reads    phase              posts   p50 ms   p99 ms   max ms  viewer reads  failed  loop p99 loop max',
  );
  const fmt = (n: number) => n.toFixed(2).padStart(9);
  for (const mode of ['thread', 'loop']) {
    const server = await startServer(mode, path);
    for (const withReads of [false, true]) {
      const r = await phase(server, path, withReads);
      const label = withReads ? 'while viewer reads' : 'baseline (no reads)';
      console.log(
        ` ${mode.padEnd(8)} ${label.padEnd(19)}${String(r.posts).padStart(6)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.max)}${String(r.reads).padStart(14)}${String(r.failed).padStart(8)}${fmt(r.loop.p99)}${fmt(r.loop.max)}`,
      );
    }
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// What one PostgreSQL statement costs the collector's process in CPU, and why: events stored
// one at a time through the storage (one batch statement each), over TCP loopback and over
// the server's unix socket; beside them, in the same run, a bare node-postgres round trip
// (`SELECT 1`, back to back) and the same round trip when the server holds it for 0.5 ms
// (`pg_sleep`, as a commit waits for its WAL flush): the process goes to sleep and is woken
// by the answer. User and system CPU per statement (process.cpuUsage), medians of
// BENCH_ROUNDS interleaved rounds of BENCH_N statements, and the load average. Not part of
// `pnpm bench`. PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL, else a throwaway embedded one;
// the unix socket from BENCH_POSTGRES_SOCKET_DIR (default /var/run/postgresql), where the
// server has one.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import pg from 'pg';
import { toolEventPayload } from './harness.ts';

const N = Number(process.env['BENCH_N'] ?? 1500);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SOCKET_DIR = process.env['BENCH_POSTGRES_SOCKET_DIR'] ?? '/var/run/postgresql';

const server = await startTestPostgres();
const tcp = new URL(server.url);
const port = tcp.port || '5432';
const socketUrl = existsSync(join(SOCKET_DIR, `.s.PGSQL.${port}`))
  ? `postgres://${tcp.username}@localhost${tcp.pathname}?host=${SOCKET_DIR}&port=${port}`
  : undefined;
const schema = freshSchema('stmt');
const tcpStorage = await openPostgresStorage({ url: server.url, schema });
const socketStorage = socketUrl ? await openPostgresStorage({ url: socketUrl, schema }) : undefined;
const client = new pg.Client({ connectionString: server.url });
await client.connect();

type Run = () => Promise<unknown>;
const put =
  (storage: typeof tcpStorage): Run =>
  () =>
    storage.putEvent(JSON.parse(toolEventPayload()), { pending: true });
const targets: Array<[string, Run]> = [
  ['SELECT 1, back to back (baseline)', () => client.query({ name: 'one', text: 'SELECT 1' })],
  [
    'SELECT pg_sleep(0.0005): the same, idle 0.5 ms',
    () => client.query({ name: 'nap', text: 'SELECT pg_sleep(0.0005)' }),
  ],
  ['putEvent, one per statement, TCP', put(tcpStorage)],
  ...(socketStorage
    ? [['putEvent, one per statement, unix socket', put(socketStorage)] as [string, Run]]
    : []),
];

const results = new Map<string, Array<{ user: number; system: number; wall: number }>>();
const loadBefore = loadavg()[0]!;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of targets) {
    for (let i = 0; i < 100; i++) await run();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < N; i++) await run();
    const { user, system } = process.cpuUsage(cpu);
    const wall = ((performance.now() - started) * 1000) / N;
    results.set(name, [...(results.get(name) ?? []), { user: user / N, system: system / N, wall }]);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `CPU per statement: ${N} statements × ${ROUNDS} interleaved rounds (medians), Node ${process.version}, PostgreSQL from ${server.source}${socketUrl ? '' : ' (no unix socket found)'}`,
);
console.log(` ${'target'.padEnd(48)}  user µs  system µs  wall µs`);
for (const [name, runs] of results) {
  const m = (pick: (r: { user: number; system: number; wall: number }) => number) =>
    median(runs.map(pick)).toFixed(0).padStart(9);
  console.log(` ${name.padEnd(48)}${m((r) => r.user)}${m((r) => r.system)}  ${m((r) => r.wall)}`);
}
console.log(
  `\n load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after (2 cores, shared)`,
);
await Promise.all([tcpStorage.close(), socketStorage?.close(), client.end()]);
await server.stop();

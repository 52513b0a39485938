// What one POST /v1/events costs on PostgreSQL, statement by statement: a collector over a
// fresh schema in this process, `clients` keep-alive clients posting tool events for
// BENCH_MS, every statement the collector sends timed (pg's Client.query hooked, from the
// call to its result) and grouped by its text; then the same for `pgbench`-style single
// INSERTs on one pg.Client as the round-trip baseline. Not part of `pnpm bench`.
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL, else a throwaway embedded one.

import { mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId } from '@kiro-learn/schema';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { createCollector, normalizeSettings } from 'kiro-learn';
import pg from 'pg';
import { httpRequest, quantile, timedLoad, toolEventPayload } from './harness.ts';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 1);

const timings = new Map<string, number[]>();
let on = false;
const orig = pg.Client.prototype.query as (...a: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: unknown }).query = function (
  this: unknown,
  ...a: unknown[]
) {
  if (!on) return orig.apply(this, a);
  const q = a[0] as string | { text: string };
  const key = (typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').slice(0, 90);
  const started = performance.now();
  const done = () => timings.set(key, [...(timings.get(key) ?? []), performance.now() - started]);
  // pg.Pool passes a callback; kysely awaits the promise.
  const last = a.at(-1);
  if (typeof last === 'function') {
    a[a.length - 1] = (...r: unknown[]) => {
      done();
      return (last as (...r: unknown[]) => unknown)(...r);
    };
  }
  const result = orig.apply(this, a);
  if (
    typeof last !== 'function' &&
    result &&
    typeof (result as Promise<unknown>).then === 'function'
  ) {
    void (result as Promise<unknown>).then(done, () => undefined);
  }
  return result;
};

const server = await startTestPostgres();
const schema = freshSchema('stmts');
const storage = await openPostgresStorage({ url: server.url, schema });
const home = mkdtempSync(join(tmpdir(), 'kl-stmts-'));
const collector = createCollector({ storage, settings: normalizeSettings({ port: 0 }, home) });
const { port } = await collector.listen();
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const load = await timedLoad({
  clients: CLIENTS,
  durationMs: DURATION_MS,
  warmupMs: 500,
  onWarm: () => {
    on = true;
  },
  prepare: () => {
    const body = toolEventPayload();
    return async () => (await httpRequest(port, 'POST', '/v1/events', { agent, body })).status;
  },
});
on = false;
agent.destroy();
console.log(
  `${CLIENTS} client(s), ${DURATION_MS} ms, load average ${loadavg()[0]!.toFixed(1)}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, ${load.count} requests`,
);
for (const [key, ts] of [...timings].sort((a, b) => b[1].length - a[1].length)) {
  ts.sort((x, y) => x - y);
  console.log(
    `  ${String(ts.length).padStart(6)} × p50 ${quantile(ts, 0.5).toFixed(2)} ms p99 ${quantile(ts, 0.99).toFixed(2)} ms  (${(ts.length / load.count).toFixed(2)}/request)  ${key}`,
  );
}
await collector.close();
await storage.close();

// The baseline: the same row inserted by one statement per transaction on one connection.
const client = new pg.Client({ connectionString: server.url });
await client.connect();
await client.query(`SET search_path = ${schema}`);
const times: number[] = [];
const end = performance.now() + DURATION_MS;
while (performance.now() < end) {
  const json = toolEventPayload();
  const t = performance.now();
  await client.query(
    `INSERT INTO events (event_id, namespace, session_id, kind, valid_time, received_at, bytes, json) VALUES ($1, $2, 's', 'tool_use', now()::text, now()::text, $3, $4)`,
    [newEventId(), '/actor/dev/project/repo1/', json.length, json],
  );
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(
  `  baseline: one INSERT per transaction on one pg.Client, ${times.length} in ${DURATION_MS} ms: p50 ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms`,
);
await client.end();
await server.stop();

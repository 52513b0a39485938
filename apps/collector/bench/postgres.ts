// PostgreSQL ingest benchmark, beside SQLite in the same run: POST /v1/events through the
// full pipeline with 1 and 8 keep-alive clients on a collector over SQLite, one over
// PostgreSQL, and two collectors over the same PostgreSQL schema (the 8 clients split
// between them), each server in its own process. Prints req/s, p50 and p99, errors and the
// server CPU per request (both servers' for the pair), and the bare-echo baseline.
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a fresh database, dropped after), else a
// throwaway embedded PostgreSQL. BENCH_MS sets the run length. Asserts nothing.
import { newEventId } from '@kiro-learn/schema';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';
import { fmt, type IngestServer, ingestLoad, startIngestServer } from './harness.ts';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);

function payload(): string {
  return JSON.stringify({
    event_id: newEventId(),
    session_id: 'bench-session',
    actor_id: 'dev',
    namespace: `/actor/dev/project/repo${Math.floor(Math.random() * 8)}/`,
    schema_version: 1,
    kind: 'tool_use',
    body: {
      type: 'json',
      data: {
        tool_name: 'fs_write',
        tool_input: { path: 'src/webhooks/stripe.ts', summary: 'Keep the raw body' },
        tool_response: { success: true },
      },
    },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'bench' },
  });
}

const pg = await startTestPostgres();
try {
  const onPostgres = (schema: string) => ({
    env: { BENCH_POSTGRES_URL: pg.url, BENCH_POSTGRES_SCHEMA: schema },
  });
  console.log(
    `PostgreSQL ingest benchmark: ${DURATION_MS} ms per run, Node ${process.version}, PostgreSQL from ${pg.source}`,
  );
  console.log(' clients  target                  req/s   p50 ms   p99 ms   cpu µs  errors');
  for (const clients of [1, 8]) {
    const targets: Array<[string, () => Promise<IngestServer[]>]> = [
      ['echo (baseline)', async () => [await startIngestServer('echo')]],
      ['SQLite', async () => [await startIngestServer('collector')]],
      [
        'PostgreSQL',
        async () => [await startIngestServer('postgres', onPostgres(freshSchema('b')))],
      ],
    ];
    if (clients > 1) {
      targets.push([
        'PostgreSQL ×2',
        async () => {
          const schema = freshSchema('b');
          // One first, so the second finds the schema migrated.
          const first = await startIngestServer('postgres', onPostgres(schema));
          return [first, await startIngestServer('postgres', onPostgres(schema))];
        },
      ]);
    }
    for (const [name, start] of targets) {
      const r = await ingestLoad(await start(), clients, DURATION_MS, payload);
      console.log(
        `${String(clients).padStart(8)}  ${name.padEnd(18)}${fmt(r.rps, 0)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.cpu, 0)}${String(r.errors).padStart(8)}`,
      );
    }
  }
} finally {
  await pg.stop();
}

// Ingest benchmark: POST /v1/events through the full pipeline (validate → scrub → SQLite
// → pending buffer) against a bare hono echo route, same client, same payloads, same run.
// 1, 8 and 64 concurrent keep-alive clients. Prints req/s, p50 and p99, and the ratio.
// BENCH_MS sets the run length, BENCH_CLIENTS the client counts (`1,64`), and
// BENCH_PROFILE=<dir> writes CPU profiles of each server to <dir>/<server>-<clients>/
// (the main thread's is `*.0.001.cpuprofile`; read it with `node bench/profile-top.ts`).
import { newEventId } from '@kiro-learn/schema';
import { FIRST_SESSION } from '../src/demo/session.ts';
import { fmt, ingestLoad, startIngestServer } from './harness.ts';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const CLIENTS = (process.env['BENCH_CLIENTS'] ?? '1,8,64').split(',').map(Number);
const PROFILE_DIR = process.env['BENCH_PROFILE'];

/** The demo session's edit of the webhook handler, as the Kiro CLI hook sends it. */
const toolUse = {
  ...FIRST_SESSION.find((hook) => hook.payload['tool_name'] === 'fs_write')!.payload,
  cwd: '/home/dev/src/payments-api',
};

function payload(): string {
  return JSON.stringify({
    event_id: newEventId(),
    session_id: 'bench-session',
    actor_id: 'dev',
    namespace: '/actor/dev/project/payments-api/',
    schema_version: 1,
    kind: 'tool_use',
    body: { type: 'json', data: toolUse },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'bench' },
  });
}

console.log(
  `ingest benchmark: ${DURATION_MS} ms per run, Node ${process.version}, payload ${payload().length} bytes`,
);
// `cpu µs` is the server's CPU time (all its threads) per request: steadier than req/s on
// a shared machine, where the client competes for the same cores.
console.log(' clients  target        req/s   p50 ms   p99 ms   cpu µs  errors  ingest/echo');
for (const clients of CLIENTS) {
  const results: Record<string, Awaited<ReturnType<typeof ingestLoad>>> = {};
  for (const mode of ['echo', 'collector']) {
    // One directory per server: worker threads write profiles of their own.
    const profile = PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/${mode}-${clients}`]
      : [];
    const server = await startIngestServer(mode, { nodeArgs: profile });
    results[mode] = await ingestLoad([server], clients, DURATION_MS, payload);
  }
  const echo = results['echo']!;
  const ingest = results['collector']!;
  for (const [name, r] of [
    ['echo', echo],
    ['ingest', ingest],
  ] as const) {
    const ratio =
      name === 'ingest' ? `${((ingest.rps / echo.rps) * 100).toFixed(0)} %`.padStart(12) : '';
    console.log(
      `${String(clients).padStart(8)}  ${name.padEnd(9)}${fmt(r.rps, 0)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.cpu, 0)}${String(r.errors).padStart(8)}${ratio}`,
    );
  }
}

// Ingest benchmark: POST /v1/events through the full pipeline (validate → scrub → SQLite
// → pending buffer) against a bare hono echo route, same client, same payloads, same run.
// 1, 8 and 64 concurrent keep-alive clients. Prints req/s, p50 and p99, and the ratio.
// BENCH_MS sets the run length, BENCH_CLIENTS the client counts (`1,64`), and
// BENCH_PROFILE=<dir> writes CPU profiles of each server to <dir>/<server>-<clients>/
// (the main thread's is `*.0.001.cpuprofile`; read it with `node bench/profile-top.ts`).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { newEventId } from '@kiro-learn/schema';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const WARMUP_MS = 500;
const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const CLIENTS = (process.env['BENCH_CLIENTS'] ?? '1,8,64').split(',').map(Number);
const PROFILE_DIR = process.env['BENCH_PROFILE'];

const toolUse = {
  hook_event_name: 'postToolUse',
  cwd: '/home/dev/src/payments-api',
  tool_name: 'fs_write',
  tool_input: {
    command: 'str_replace',
    path: 'src/webhooks/stripe.ts',
    old_str: 'router.use(express.json());',
    new_str: "router.use('/webhooks/stripe', express.raw({ type: 'application/json' }));",
    summary: 'Keep the raw body for signature verification',
  },
  tool_response: { success: true, result: ['Replaced 1 occurrence in src/webhooks/stripe.ts'] },
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

async function startServer(mode: string, clients: number) {
  // One directory per server: worker threads write profiles of their own.
  const profile = PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/${mode}-${clients}`]
    : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, SERVER, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolve) => {
    child.stdout.on('data', (d) => {
      lines.push(...String(d).trim().split('\n'));
      if (lines.length === 1) resolve(Number(lines[0]));
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    port,
    /** Starts the server's CPU accounting (the end of the warm-up). */
    mark: () => child.kill('SIGUSR2'),
    /** Stops the server; resolves to the CPU microseconds it used since `mark`. */
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return Number(lines.at(-1));
    },
  };
}

function post(agent: Agent, port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/events',
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(server: Awaited<ReturnType<typeof startServer>>, clients: number) {
  const { port } = server;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  setTimeout(server.mark, WARMUP_MS);
  const end = warmEnd + DURATION_MS;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const body = payload();
        const started = performance.now();
        if (started >= end) return;
        const status = await post(agent, port, body);
        if (status !== 200) errors++;
        if (started >= warmEnd) latencies.push(performance.now() - started);
      }
    }),
  );
  agent.destroy();
  const cpuMicros = await server.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rps: latencies.length / (DURATION_MS / 1000),
    p50: at(0.5),
    p99: at(0.99),
    errors,
    cpu: cpuMicros / latencies.length,
  };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);
console.log(
  `ingest benchmark: ${DURATION_MS} ms per run, Node ${process.version}, payload ${payload().length} bytes`,
);
// `cpu µs` is the server's CPU time (all its threads) per request: steadier than req/s on
// a shared machine, where the client competes for the same cores.
console.log(' clients  target        req/s   p50 ms   p99 ms   cpu µs  errors  ingest/echo');
for (const clients of CLIENTS) {
  const results: Record<string, Awaited<ReturnType<typeof run>>> = {};
  for (const mode of ['echo', 'collector']) {
    results[mode] = await run(await startServer(mode, clients), clients);
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

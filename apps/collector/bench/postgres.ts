// PostgreSQL ingest benchmark, beside SQLite in the same run: POST /v1/events through the
// full pipeline with 1 and 8 keep-alive clients on a collector over SQLite, one over
// PostgreSQL, and two collectors over the same PostgreSQL schema (the 8 clients split
// between them), each server in its own process. Prints req/s, p50 and p99, errors and the
// server CPU per request (both servers' for the pair), and the bare-echo baseline.
// PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL (a fresh database, dropped after), else a
// throwaway embedded PostgreSQL. BENCH_MS sets the run length. Asserts nothing.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { newEventId } from '@kiro-learn/schema';
import { freshSchema, startTestPostgres } from '@kiro-learn/test-postgres';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 3000);
const WARMUP_MS = 500;
const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

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

interface Server {
  port: number;
  mark(): void;
  stop(): Promise<number>;
}

async function startServer(mode: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, [...process.execArgv, SERVER, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
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
    mark: () => child.kill('SIGUSR2'),
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

/** `clients` keep-alive clients spread over `servers` round robin. */
async function run(servers: Server[], clients: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  setTimeout(() => {
    for (const s of servers) s.mark();
  }, WARMUP_MS);
  const end = warmEnd + DURATION_MS;
  await Promise.all(
    Array.from({ length: clients }, async (_, n) => {
      const { port } = servers[n % servers.length]!;
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
  let cpuMicros = 0;
  for (const s of servers) cpuMicros += await s.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rps: latencies.length / (DURATION_MS / 1000),
    p50: at(0.5),
    p99: at(0.99),
    errors,
    cpu: cpuMicros / Math.max(1, latencies.length),
  };
}

const pg = await startTestPostgres();
try {
  const onPostgres = (schema: string) => ({
    BENCH_POSTGRES_URL: pg.url,
    BENCH_POSTGRES_SCHEMA: schema,
  });
  console.log(
    `PostgreSQL ingest benchmark: ${DURATION_MS} ms per run, Node ${process.version}, PostgreSQL from ${pg.source}`,
  );
  console.log(' clients  target                  req/s   p50 ms   p99 ms   cpu µs  errors');
  const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);
  for (const clients of [1, 8]) {
    const targets: Array<[string, () => Promise<Server[]>]> = [
      ['echo (baseline)', async () => [await startServer('echo')]],
      ['SQLite', async () => [await startServer('collector')]],
      ['PostgreSQL', async () => [await startServer('postgres', onPostgres(freshSchema('b')))]],
    ];
    if (clients > 1) {
      targets.push([
        'PostgreSQL ×2',
        async () => {
          const schema = freshSchema('b');
          // One first, so the second finds the schema migrated.
          const first = await startServer('postgres', onPostgres(schema));
          return [first, await startServer('postgres', onPostgres(schema))];
        },
      ]);
    }
    for (const [name, start] of targets) {
      const r = await run(await start(), clients);
      console.log(
        `${String(clients).padStart(8)}  ${name.padEnd(18)}${fmt(r.rps, 0)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.cpu, 0)}${String(r.errors).padStart(8)}`,
      );
    }
  }
} finally {
  await pg.stop();
}

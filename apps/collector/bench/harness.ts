// What the collector's benchmarks share: a server in a process of its own (so it does not
// share an event loop with the client), plain HTTP requests over keep-alive agents, a
// timed load of concurrent clients, and percentiles. Each benchmark keeps only what it
// measures: its payloads, its targets and its table.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { newEventId } from '@kiro-learn/schema';

/** A server process a benchmark started; it prints its port (or a JSON line) first. */
export interface BenchProcess {
  child: ChildProcess;
  /** The first line it printed. */
  first: string;
  /** Its next line on stdout. */
  nextLine(): Promise<string>;
  /** Its resident set size now, in MiB (Linux; 0 elsewhere). */
  rssMb(): number;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `node [execArgv] [nodeArgs] args…` with stdout read line by line; resolves once
 * it printed its first line, rejects when it exits before.
 */
export async function spawnServer(
  args: readonly string[],
  options: {
    env?: NodeJS.ProcessEnv;
    nodeArgs?: readonly string[];
    /** Called with its pid as soon as it is spawned (to put it in a cgroup, say). */
    onSpawn?: (pid: number) => void;
  } = {},
): Promise<BenchProcess> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, ...(options.nodeArgs ?? []), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...options.env },
    },
  );
  // Before it prints its port (the bench's cgroup cap was never applied without this).
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let rest = '';
  child.stdout!.on('data', (d) => {
    rest += String(d);
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n')) {
      const line = rest.slice(0, i);
      rest = rest.slice(i + 1);
      const take = waiting.shift();
      if (take) take(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const line = lines.shift();
      if (line !== undefined) resolve(line);
      else waiting.push(resolve);
    });
  const first = await Promise.race([
    nextLine(),
    exited.then(() => {
      throw new Error(`bench server ${args.join(' ')} exited before it was ready`);
    }),
  ]);
  return {
    child,
    first,
    nextLine,
    rssMb() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      } catch {
        return 0;
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One request to 127.0.0.1:`port`; resolves with its status and body text. */
export function httpRequest(
  port: number,
  method: string,
  path: string,
  options: { agent?: Agent | false; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  const { body } = options;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: options.agent ?? false,
        headers: {
          Host: `127.0.0.1:${port}`,
          ...(body === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * How long a bare `node -e ''` takes, `runs` times in a row (ms): this machine's process
 * start-up now, the same-run baseline for anything a benchmark spawns.
 */
export function nodeStarts(runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    times.push(performance.now() - t);
  }
  return times;
}

/** Numbers in [0, 1) from `seed`, the same sequence every run (a linear congruential generator). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The value at quantile `q` (0–1) of ascending `sorted` (nearest rank; 0 when empty). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** What a load reports: completed requests per second, latency in ms, non-2xx answers. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests measured (after the warm-up). */
  count: number;
}

/**
 * `clients` concurrent clients, each sending requests back to back for `warmupMs +
 * durationMs`; only requests started after the warm-up count. `prepare(client)` builds a
 * request (its payload) outside the timed part and returns the call, which resolves with
 * the status. `onWarm` runs when the warm-up ends (servers start their CPU accounting).
 */
export async function timedLoad(options: {
  clients: number;
  durationMs: number;
  warmupMs: number;
  prepare: (client: number) => () => Promise<number>;
  onWarm?: () => void;
}): Promise<LoadResult> {
  const { clients, durationMs, warmupMs, prepare } = options;
  const latencies: number[] = [];
  let errors = 0;
  const warmEnd = performance.now() + warmupMs;
  if (options.onWarm) setTimeout(options.onWarm, warmupMs);
  const end = warmEnd + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (;;) {
        const call = prepare(client);
        const started = performance.now();
        if (started >= end) return;
        const status = await call();
        if (status !== 200) errors++;
        if (started >= warmEnd) latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / (durationMs / 1000),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    count: latencies.length,
  };
}

/** A number right-aligned in a column of 9. */
export const fmt = (n: number, digits = 2) => n.toFixed(digits).padStart(9);

/** The ingest server of `server.ts` (echo, collector or postgres), with CPU accounting. */
export interface IngestServer {
  port: number;
  /** Starts the server's CPU accounting (the end of the warm-up). */
  mark(): void;
  /** Stops the server; resolves to the CPU microseconds (all threads) it used since `mark`. */
  stop(): Promise<number>;
}

const INGEST_SERVER = new URL('./server.ts', import.meta.url).pathname;

/**
 * Starts `server.ts <mode>` in its own process; `script`: another checkout's server.ts (a
 * previous build, as a same-run baseline).
 */
export async function startIngestServer(
  mode: string,
  options: Parameters<typeof spawnServer>[1] & { script?: string } = {},
): Promise<IngestServer> {
  const { script = INGEST_SERVER, ...spawnOptions } = options;
  const server = await spawnServer([script, mode], spawnOptions);
  return {
    port: Number(server.first),
    mark: () => server.child.kill('SIGUSR2'),
    async stop() {
      const cpu = server.nextLine();
      await server.stop();
      return Number(await cpu);
    },
  };
}

/** Ingest warm-up before measuring, in ms. */
const INGEST_WARMUP_MS = 500;

/**
 * `clients` keep-alive clients POSTing `payload()` to /v1/events for `durationMs`, spread
 * over `servers` round robin; the servers stop afterwards. Adds `cpu`: the servers' CPU
 * microseconds per measured request.
 */
export async function ingestLoad(
  servers: readonly IngestServer[],
  clients: number,
  durationMs: number,
  payload: () => string,
): Promise<LoadResult & { cpu: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const result = await timedLoad({
    clients,
    durationMs,
    warmupMs: INGEST_WARMUP_MS,
    onWarm: () => {
      for (const s of servers) s.mark();
    },
    prepare: (client) => {
      const body = payload();
      const { port } = servers[client % servers.length]!;
      return async () => (await httpRequest(port, 'POST', '/v1/events', { agent, body })).status;
    },
  });
  agent.destroy();
  let cpuMicros = 0;
  for (const s of servers) cpuMicros += await s.stop();
  return { ...result, cpu: cpuMicros / Math.max(1, result.count) };
}

/**
 * A hook's tool event (an edit) in one of eight projects, as a POST /v1/events body: the
 * PostgreSQL ingest benches' payload.
 */
export function toolEventPayload(): string {
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

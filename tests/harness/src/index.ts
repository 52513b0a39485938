/**
 * @kiro-learn/test-harness: what tests and benchmarks need to run kiro-learn as users run
 * it, in child processes: the built CLI (turbo builds it before any test), fresh data dirs,
 * free ports, `kiro-learn start --foreground` waited on until it answers, and JSON posts
 * that report a dropped connection as status 0 instead of throwing; load for durability
 * tests (flood) and the check that nothing acknowledged was lost (missing).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
/** The built CLI: child-process tests run what users run. */
export const CLI = join(repoRoot, 'apps/collector/dist/cli.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const homes: string[] = [];
/** A fresh data dir (`prefix` names it), removed by `removeHomes`. */
export function tempHome(prefix = 'kl-child-'): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  homes.push(home);
  return home;
}
/** Removes every data dir `tempHome` made so far. */
export function removeHomes(): void {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/** The environment of a collector at `home` on `port` (never the user's own data dir). */
export function envFor(
  home: string,
  port: number,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: String(port), ...extra };
}

/**
 * For `envFor`'s `extra`: the collector starts without its embedding model (retrieval is
 * lexical, status says semantic search is off). For tests that never search by meaning: a
 * start then loads no model (about 1 CPU-s and 280 MB less), and a stop has no runtime call
 * to wait for (a stop gives a load up, but waits for the onnxruntime call under way).
 */
export const NO_MODEL: Readonly<Record<string, string>> = Object.freeze({
  KIRO_LEARN_SEMANTIC_ENABLED: 'false',
});

/** `kiro-learn <args>` to completion (in `cwd`): its exit code and what it printed. */
export function cli(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: 'utf8',
    // A hang guard, not a speed limit: a loaded two-core machine runs several suites.
    timeout: 90_000,
    ...(cwd ? { cwd } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A collector child process (`start --foreground`), as a user's terminal would run it. */
export interface CollectorChild {
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed, stdout and stderr. */
  output(): string;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `kiro-learn start --foreground` (with `nodeArgs` before the CLI); resolves once
 * it answers /healthz on `port`, rejects if it exits first.
 */
export async function spawnCollector(
  env: NodeJS.ProcessEnv,
  port: number,
  nodeArgs: string[] = [],
): Promise<CollectorChild> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'start', '--foreground'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the collector exited early: ${output}`);
    }
    if (await healthy(port)) break;
    await sleep(50);
  }
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { child, pid: child.pid!, exited, output: () => output, stop };
}

/** Whether a collector answers /healthz on `port` within 2 s. */
export function healthy(port: number): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => done(false));
    req.setTimeout(2000, () => req.destroy());
    req.end();
  });
}

/** POSTs JSON; resolves to the status, or 0 when the connection failed. */
export function post(agent: Agent, port: number, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((done) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done(0));
      },
    );
    req.on('error', () => done(0));
    req.end(data);
  });
}

/** Polls `probe` every 50 ms until it gives a value (at most a minute); `what` names it on timeout. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * `kiro-learn <args>` as a child (in `cwd`), without blocking this process (it may serve a
 * collector, or run other tests side by side).
 */
export function cliAsync(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return outputOf(
    spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    }),
  );
}

/** What a child printed, and its exit code, once it closed (a hook, a CLI run). */
export function outputOf(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

/** What flood posts: anything with an `event_id` (an Event, usually). */
export interface Posted {
  event_id: string;
}

/**
 * Sends events from `clients` keep-alive clients until `stop()`; collects the acknowledged
 * ids. `event(client)` makes each one (the client's number, 0-based, for per-client
 * sessions). A client whose connection fails waits 20 ms and tries again.
 */
export function flood(
  port: number,
  clients: number,
  event: (client: number) => Posted,
  path = '/v1/events',
) {
  const acked: string[] = [];
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loops = Array.from({ length: clients }, async (_, client) => {
    while (running) {
      const e = event(client);
      const status = await post(agent, port, path, e);
      if (status === 200) acked.push(e.event_id);
      else if (status === 0) await sleep(20); // the collector is gone or going
    }
  });
  return {
    acked,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/**
 * The ids among `acked` that a new collector on the same data dir (`env`, `port`) does not
 * have: it is started, asked, and stopped again.
 */
export async function missingAfterRestart(
  env: NodeJS.ProcessEnv,
  port: number,
  acked: readonly string[],
): Promise<string[]> {
  const next = await spawnCollector(env, port);
  try {
    return await missing(port, acked);
  } finally {
    await next.stop();
  }
}

/** The ids among `ids` the collector at `port` does not have. */
export async function missing(port: number, ids: readonly string[]): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const gone: string[] = [];
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids.slice(i, i + 8).map(
        (id) =>
          new Promise<void>((done) => {
            const req = request(
              { host: '127.0.0.1', port, path: `/v1/events/${id}`, agent },
              (res) => {
                res.resume();
                res.on('end', () => {
                  if (res.statusCode !== 200) gone.push(id);
                  done();
                });
              },
            );
            req.on('error', () => {
              gone.push(id);
              done();
            });
            req.end();
          }),
      ),
    );
  }
  agent.destroy();
  return gone;
}

/**
 * Waits until the collector's `/v1/status` shows no project with pending events or a
 * running extraction `quietRounds` times in a row (the buffer may not have seen the last
 * event yet), read with `get`; rejects after `timeoutMs`.
 */
export async function settled(
  get: <T>(path: string) => Promise<T>,
  { timeoutMs = 120_000, quietRounds = 2 }: { timeoutMs?: number; quietRounds?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (Date.now() < deadline) {
    const status = await get<{
      projects?: Array<{ pendingEvents: number; extracting: boolean }>;
    }>('/v1/status');
    const busy = (status.projects ?? []).some((p) => p.pendingEvents > 0 || p.extracting);
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= quietRounds) return;
    await sleep(100);
  }
  throw new Error(`extraction did not settle within ${timeoutMs} ms`);
}

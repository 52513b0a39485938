import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Event, newEventId } from '@kiro-learn/schema';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
/** The built CLI: faults are injected into what users run (turbo builds before test). */
export const CLI = join(repoRoot, 'apps/collector/dist/cli.js');
export const NS = '/actor/dev/project/fault/';

const homes: string[] = [];
/** A fresh data dir, removed by `removeHomes`. */
export function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'kl-fault-'));
  homes.push(home);
  return home;
}
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

export function envFor(home: string, port: number, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_EXTRACTOR: 'builtin',
    ...extra,
  };
}

/** `kiro-learn <args>` to completion. */
export function kiroLearn(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A collector child process (`start --foreground`), as a user's terminal would run it. */
export interface CollectorChild {
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Spawns `kiro-learn start --foreground`; resolves once it answers (or rejects if it exits). */
export async function spawnCollector(
  env: NodeJS.ProcessEnv,
  port: number,
  args: string[] = [],
): Promise<CollectorChild> {
  const child = spawn(process.execPath, [...args, CLI, 'start', '--foreground'], {
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
  return { child, pid: child.pid!, exited, output: () => output };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** A valid event of the fault namespace. */
export function makeEvent(overrides: Partial<Event> = {}): Event {
  return {
    event_id: newEventId(),
    session_id: 'fault-session',
    actor_id: 'dev',
    namespace: NS,
    schema_version: 1,
    kind: 'tool_use',
    body: {
      type: 'json',
      data: { tool_name: 'fs_read', tool_input: { path: 'src/app.ts' }, tool_response: 'ok' },
    },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'fault' },
    ...overrides,
  };
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

/** Sends events from `clients` keep-alive clients until `stop()`; collects the acknowledged ids. */
export function flood(
  port: number,
  clients: number,
  event: () => Event = () => makeEvent(),
  path = '/v1/events',
) {
  const acked: string[] = [];
  let running = true;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const e = event();
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

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/** True while `pid` runs (a zombie nobody reaped yet counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** `kiro-learn <args>` as a child, without blocking this process. */
export function kiroLearnAsync(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

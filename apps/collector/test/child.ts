import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI: child-process tests run what users run (turbo builds before test). */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'kl-child-'));
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function envFor(home: string, port: number, extra: Record<string, string> = {}) {
  return { ...process.env, KIRO_LEARN_HOME: home, KIRO_LEARN_PORT: String(port), ...extra };
}

/** Runs `kiro-learn <args>` to completion. */
export function cli(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
    ...(cwd ? { cwd } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `kiro-learn start --foreground` as a child; resolves once /healthz answers. */
export async function spawnForeground(env: NodeJS.ProcessEnv, port: number) {
  const child = spawn(process.execPath, [CLI, 'start', '--foreground'], {
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
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  for (;;) {
    if (child.exitCode !== null) throw new Error(`collector exited early: ${output}`);
    if (await healthy(port)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, exited, output: () => output };
}

export function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** POSTs JSON over a keep-alive agent; resolves to the status, or 0 when the connection failed. */
export function post(agent: Agent, port: number, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve) => {
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
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(data);
  });
}

export type Child = ChildProcess;

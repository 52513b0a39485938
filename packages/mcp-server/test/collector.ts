import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './helpers.ts';

const COLLECTOR_CLI = fileURLToPath(
  new URL('../../../apps/collector/dist/cli.js', import.meta.url),
);

export interface RunningCollector {
  url: string;
  port: number;
  /** Plain HTTP against the collector, as the tests' independent view of what is stored. */
  get(path: string): Promise<{ status: number; text: string }>;
  post(path: string, body: unknown): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

/** Starts the real collector (`kiro-learn start --foreground`) on a free port with its own data dir. */
export async function startCollector(home: string): Promise<RunningCollector> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [COLLECTOR_CLI, 'start', '--foreground'], {
    env: {
      ...process.env,
      KIRO_LEARN_HOME: home,
      KIRO_LEARN_PORT: String(port),
      KIRO_LEARN_HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, text: await response.text() };
  };
  // Poll /healthz until it answers, or fail with the collector's own stderr if it exits.
  let ready = false;
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const deadline = Date.now() + 25_000;
  while (!ready && !dead && Date.now() < deadline) {
    ready = await request('GET', '/healthz').then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the collector did not become ready:\n${stderr}`);
  }
  return {
    url,
    port,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

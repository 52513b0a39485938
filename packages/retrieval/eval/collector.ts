/**
 * A real collector for the end-to-end evals: the built CLI (`apps/collector/dist/cli.js`,
 * `./pnpmw --filter kiro-learn build`) started in the foreground in a fresh data dir on a
 * free loopback port, spoken to over HTTP only. Spawned by path, not imported: retrieval
 * sits below the collector in the dependency order, and the eval must see exactly what a
 * user's hooks see.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, freePort, settled, sleep, spawnCollector } from '@kiro-learn/test-harness';

export { CLI };

export interface Collector {
  port: number;
  home: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  /** Waits until no project has pending events or a running extraction. */
  settle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a collector (built-in extractor, semantic search as configured) and waits until it
 * answers and, unless semantic search is off, until the model has loaded.
 */
export async function startCollector(env: Record<string, string> = {}): Promise<Collector> {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run ./pnpmw --filter kiro-learn build first`);
  }
  const home = mkdtempSync(join(tmpdir(), 'kiro-learn-eval-collector-'));
  const port = await freePort();
  const collector = await spawnCollector(
    {
      ...process.env,
      HOME: home,
      KIRO_LEARN_HOME: join(home, 'data'),
      KIRO_LEARN_PORT: String(port),
      KIRO_LEARN_ACTOR: 'eval',
      KIRO_LEARN_EXTRACTOR: 'builtin',
      // The eval measures ranking, not this machine's load.
      KIRO_LEARN_RETRIEVAL_BUDGET_MS: '20000',
      ...env,
    },
    port,
  );
  const { child } = collector;
  const output = () => collector.output();
  const base = `http://127.0.0.1:${port}`;
  const answer = async <T>(res: Response, what: string): Promise<T> => {
    if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const get = async <T>(path: string) => answer<T>(await fetch(base + path), `GET ${path}`);
  const post = async <T>(path: string, body: unknown) =>
    answer<T>(
      await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      `POST ${path}`,
    );
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the collector exited: ${output()}`);
    if (i > 2400) throw new Error(`the collector did not answer in 2 minutes: ${output()}`);
    try {
      const status = await get<{ semantic?: { state?: string } }>('/v1/status');
      const state = status.semantic?.state;
      if (state === 'failed') throw new Error(`the embedding model failed to load: ${output()}`);
      if (state !== 'loading') break;
    } catch (error) {
      if (error instanceof Error && error.message.includes('failed to load')) throw error;
    }
    await sleep(50);
  }
  return {
    port,
    home,
    get,
    post,
    settle: (timeoutMs = 300_000) => settled(get, { timeoutMs, quietRounds: 3 }),
    async stop() {
      await Promise.race([collector.stop(), sleep(20_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

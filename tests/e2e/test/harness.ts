import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@kiro-learn/test-harness';
import { expect } from 'vitest';

export { freePort };

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
export const CLI = join(repoRoot, 'apps/collector/dist/cli.js');
export const SHIMS = join(repoRoot, 'packages/shims/dist/bin');
export const MCP = join(repoRoot, 'packages/mcp-server/dist/cli.js');

/** The agents' own hook payloads (copied into the repository: the suite reads nothing outside it). */
export const FIXTURES = join(repoRoot, 'tests/e2e/fixtures/hook-payloads');

export function fixture(surface: string, name: string, project: string): Record<string, unknown> {
  const text = readFileSync(join(FIXTURES, surface, `${name}.json`), 'utf8');
  return JSON.parse(text.replaceAll('/home/dev/src/payments-api', project)) as Record<
    string,
    unknown
  >;
}

/** A user's world: a data dir, a git repository to work in, and the collector's address. */
export interface World {
  home: string;
  project: string;
  port: number;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  cleanup(): void;
}

export async function makeWorld(extra: Record<string, string>): Promise<World> {
  const root = mkdtempSync(join(tmpdir(), 'kiro-learn-e2e-'));
  const home = join(root, 'home');
  const project = join(root, 'src', 'payments-api');
  execFileSync('git', ['init', '-q', project]);
  const port = await freePort();
  const env = {
    ...process.env,
    HOME: join(root, 'user'),
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_ACTOR: 'dev',
    ...extra,
  };
  return {
    home,
    project,
    port,
    env,
    baseUrl: `http://127.0.0.1:${port}`,
    cleanup() {
      spawnSync(process.execPath, [CLI, 'stop'], { env, encoding: 'utf8' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function kiroLearn(world: World, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: world.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `kiro-learn start` in the world, which must succeed (its stderr says why not). */
export function startCollector(world: World): void {
  const started = kiroLearn(world, 'start');
  expect(started.code, started.stderr).toBe(0);
}

/** Runs one hook process as the agent does: payload on stdin, in the project directory. */
export function hook(world: World, script: string, payload: unknown, args: string[] = []) {
  const r = spawnSync(process.execPath, [join(SHIMS, script), ...args], {
    cwd: world.project,
    env: world.env,
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export async function get<T>(world: World, path: string): Promise<T> {
  const res = await fetch(world.baseUrl + path).catch((err: unknown) => {
    // The hooks run with spawnSync, which blocks this process: on a loaded machine a
    // kept-alive socket can sit past the collector's keep-alive timeout, closed on the other
    // side but not yet seen closed here, and the next request on it fails. A GET is safe to
    // send again, on a new connection.
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(world.baseUrl + path);
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Waits for an extraction of `namespace` newer than `afterId` to finish (ok or failed). */
export async function extraction(world: World, namespace: string, afterId = 0) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { items } = await get<{
      items: Array<{
        id: number;
        status: string;
        extractor: string;
        records: number;
        error?: string;
      }>;
    }>(world, `/v1/extractions?namespace=${encodeURIComponent(namespace)}&after_id=${afterId}`);
    if (items[0]) return items[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no extraction finished within 60 s');
}

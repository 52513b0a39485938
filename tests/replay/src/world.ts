/**
 * A user's machine for a replay: a data dir, a free port, one git repository per replayed
 * project with kiro-learn's hooks installed by `kiro-learn init --surface claude-code`, and
 * a real collector. Hooks run as Claude Code runs them: the command from
 * `.claude/settings.local.json` through `sh -c`, the payload on stdin, in the project.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, outputOf, settled } from '@kiro-learn/test-harness';
import type { HookEvent } from './transcript.ts';

export { freePort };

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
/** The built CLI (`./pnpmw --filter kiro-learn build`, or any test run, builds it). */
export const CLI = join(repoRoot, 'apps/collector/dist/cli.js');

export interface WorldOptions {
  /** Extra environment for the collector and the hooks (e.g. `KIRO_LEARN_EXTRACTION_MODE`). */
  env?: Record<string, string>;
  /** Keep the data dir after close (to inspect it); its path is `World.root`. */
  keep?: boolean;
}

export interface HookResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface World {
  root: string;
  home: string;
  port: number;
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  /** The project directory for `name` (a git repository with the hooks installed), made on first use. */
  project(name: string): string;
  /** Runs the hook command Claude Code would run for `event` in `project`, payload on stdin. */
  hook(project: string, event: HookEvent, payload: unknown): Promise<HookResult>;
  /** Waits until no project has pending events or a running extraction (or `timeoutMs` passes). */
  settle(timeoutMs?: number): Promise<void>;
  get<T>(path: string): Promise<T>;
  close(): void;
}

interface SettingsHooks {
  hooks?: Record<string, Array<{ hooks?: Array<{ type?: string; command?: string }> }>>;
}

/** Starts a collector in a fresh data dir; projects are made (and hooks installed) on demand. */
export async function makeWorld(options: WorldOptions = {}): Promise<World> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kiro-learn-replay-')));
  const home = join(root, 'home');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(root, 'user'),
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_ACTOR: 'replay',
    ...options.env,
  };
  mkdirSync(env.HOME!, { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  const started = cli('start');
  if (started.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`kiro-learn start failed: ${started.stderr || started.stdout}`);
  }
  const projects = new Map<string, { dir: string; commands: Map<string, string[]> }>();

  function install(name: string) {
    let entry = projects.get(name);
    if (entry) return entry;
    const dir = join(root, 'src', name);
    mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    const init = spawnSync(process.execPath, [CLI, 'init', '--surface', 'claude-code', '--yes'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (init.status !== 0) throw new Error(`kiro-learn init failed: ${init.stderr || init.stdout}`);
    const settings = JSON.parse(
      readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8'),
    ) as SettingsHooks;
    const commands = new Map<string, string[]>();
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      commands.set(
        event,
        groups.flatMap((g) => (g.hooks ?? []).flatMap((h) => (h.command ? [h.command] : []))),
      );
    }
    entry = { dir, commands };
    projects.set(name, entry);
    return entry;
  }

  const get = async <T>(path: string): Promise<T> => {
    // A kept-alive connection the collector closed as it was reused fails the fetch
    // ("other side closed"): a read is asked again, once, on a fresh connection.
    const res = await fetch(baseUrl + path).catch(() =>
      fetch(baseUrl + path, { headers: { connection: 'close' } }),
    );
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  return {
    root,
    home,
    port,
    baseUrl,
    env,
    project: (name) => install(name).dir,
    async hook(project, event, payload) {
      const entry = [...projects.values()].find((p) => p.dir === project);
      const commands = entry?.commands.get(event) ?? [];
      let last: HookResult = { code: 0, stdout: '', stderr: '' };
      for (const command of commands) {
        const child = spawn('sh', ['-c', command], { cwd: project, env });
        const output = outputOf(child);
        child.stdin.on('error', () => undefined);
        child.stdin.end(JSON.stringify(payload));
        last = await output;
      }
      return last;
    },
    settle: (timeoutMs = 120_000) => settled(get, { timeoutMs }),
    get,
    close() {
      cli('stop');
      if (!options.keep) rmSync(root, { recursive: true, force: true });
    },
  };
}

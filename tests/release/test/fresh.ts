/**
 * A fresh clone, as a new user has it: the repository's files (committed and not, never
 * what is git-ignored) copied into an empty directory, then the README's commands run in
 * it as written, with a HOME of its own. What the machine already holds is reused the way
 * it would be on a developer's machine: pnpm's store, npm's cache, the checkout's own
 * `.tools/` Node and pnpm (so no test downloads Node), and turbo's cache for the build
 * (same inputs, same outputs).
 */
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { repoRoot } from './pack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fresh clone the README's commands ran in (global-setup.ts provides it). */
    fresh: Fresh;
  }
}

/** What the README's first two commands left behind. */
export interface Fresh {
  /** The scratch root: clone, home and the rest live in it. */
  root: string;
  /** The copied checkout (moved away by the test that proves nothing uses it). */
  clone: string;
  /** The user's HOME. */
  home: string;
  /** The environment a user's shell has, with ~/.local/bin on its PATH. */
  env: Record<string, string>;
  /** `./pnpmw kiro-learn start`: stdout and stderr as the terminal shows them, merged. */
  start: Ran;
  /** `./pnpmw kiro-learn install`. */
  install: Ran;
  /** Where `install` put the program and the commands (its defaults under HOME). */
  installDir: string;
  binDir: string;
  /**
   * A copy of the installed program as a plain npm project (hard links: no disk): what
   * `npm install` of the release's tarballs gives, for the tests that use the packages
   * themselves. Kept when `uninstall --self` removes the install.
   */
  installed: string;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Wall time, for the log (never asserted). */
  ms: number;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/** This machine's PATH without what the test runner put there from the repository. */
function basePath(): string {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter((dir) => dir && !resolve(dir).startsWith(repoRoot + sep))
    .filter((dir) => !dir.split(sep).includes('.tools') && !dir.includes('node_modules'))
    .join(delimiter);
}

/** Where turbo keeps this checkout's build cache (the main worktree's, in a git worktree). */
function turboCache(): string {
  try {
    const common = execFileSync('git', ['rev-parse', '--git-common-dir'], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
    return join(dirname(resolve(repoRoot, common)), '.turbo', 'cache');
  } catch {
    return join(repoRoot, '.turbo', 'cache');
  }
}

/**
 * A user's environment: the machine's, minus what pnpm, turbo and vitest set for their
 * own children, plus a HOME, data dir and port of its own.
 */
export function userEnv(home: string, port: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(npm_|pnpm_|PNPM_|TURBO_|VITEST|INIT_CWD$|NODE_OPTIONS$|KIRO_LEARN_)/i.test(key))
      continue;
    env[key] = value;
  }
  const store = spawnSync('pnpm', ['store', 'path'], { encoding: 'utf8', cwd: repoRoot });
  return {
    ...env,
    HOME: home,
    PATH: [join(home, '.local', 'bin'), basePath()].join(delimiter),
    KIRO_LEARN_HOME: join(home, '.kiro-learn'),
    KIRO_LEARN_PORT: String(port),
    KIRO_LEARN_EXTRACTOR: 'builtin',
    // The machine's caches, as a developer's own HOME would have them.
    npm_config_cache: process.env['npm_config_cache'] ?? join(homedir(), '.npm'),
    ...(store.status === 0 ? { npm_config_store_dir: store.stdout.trim() } : {}),
    TURBO_CACHE_DIR: turboCache(),
  };
}

/** Copies the checkout's files (tracked, and untracked unless git-ignored). */
export function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(from, join(to, file), { verbatimSymlinks: true });
  }
  // The wrapper's Node and pnpm, as the checkout has them: no test downloads Node (the
  // first-run phases themselves are tested with a stand-in npm, in pnpmw.test.ts).
  const tools = join(repoRoot, '.tools');
  if (existsSync(tools)) symlinkSync(realpathSync(tools), join(to, '.tools'));
}

export function sh(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  input?: string,
): Ran {
  const started = Date.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 600_000,
    ...(input !== undefined ? { input } : {}),
  });
  // EPIPE: the command exited without reading all its input, as a hook that has nothing to
  // do may (agents give hooks their payload and ignore that); not the command's failure.
  const error =
    result.error && (result.error as NodeJS.ErrnoException).code !== 'EPIPE'
      ? result.error
      : undefined;
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${error ? String(error) : ''}`,
    ms: Date.now() - started,
  };
}

/** The README's quick start, first two commands, in a fresh clone. */
export async function freshClone(): Promise<Fresh> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'kiro-learn-fresh-')));
  const clone = join(root, 'kiro-learn');
  const home = join(root, 'home');
  mkdirSync(home);
  copyCheckout(clone);
  const env = userEnv(home, await freePort());
  const start = sh('./pnpmw', ['kiro-learn', 'start'], clone, env);
  const install = sh('./pnpmw', ['kiro-learn', 'install'], clone, env);
  const installDir = join(home, '.local', 'share', 'kiro-learn');
  const installed = join(root, 'installed');
  if (install.status === 0) {
    const copied = spawnSync('cp', ['-al', installDir, installed]);
    if (copied.status !== 0)
      cpSync(installDir, installed, { recursive: true, verbatimSymlinks: true });
    rmSync(join(installed, 'kiro-learn-install.json'), { force: true });
  }
  console.log(
    `fresh clone: ./pnpmw kiro-learn start ${(start.ms / 1000).toFixed(0)} s, ./pnpmw kiro-learn install ${(install.ms / 1000).toFixed(0)} s\n${start.stdout}${start.stderr}${install.stdout}${install.stderr}`,
  );
  return {
    root,
    clone,
    home,
    env,
    start,
    install,
    installDir,
    binDir: join(home, '.local', 'bin'),
    installed,
  };
}

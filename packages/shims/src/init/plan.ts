import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { dataDir, projectIdentity } from '@kiro-learn/schema/node';
import { INSTALLERS } from '../agents/installers.js';
import { defaultBundleDir } from '../bundles.js';
import { ShimsError } from '../errors.js';
import type { ShimSurface } from '../hook.js';
import { INSTALL_SURFACES, type InstallSurface } from './detect.js';
import { findBash, findCat, findCurl } from './fast-path.js';
import { type FileChange, owned, removed, shower } from './files.js';
import { gitignoreAdditions, gitignoreRemovals } from './gitignore.js';
import type { InstallContext, InstallScope } from './installer.js';
import { readText, serializeLike, writeAtomic } from './json-file.js';
import {
  HOOK_LAUNCHER,
  hookCommand,
  hookLauncher,
  MCP_LAUNCHER,
  mcpLauncher,
  mcpRegistration,
} from './launcher.js';
import type { McpLaunch } from './merge.js';
import { chooseNode, type NodeChoice, nodeVersion } from './node.js';

export type { FileChange } from './files.js';
export { shellQuote } from './quote.js';

/** What `kiro-learn init` installs, and where. */
export interface InitOptions {
  /** A directory inside the project; the project root is detected from it. */
  cwd: string;
  /** Agents to install for; default: the ones found on this machine (all when none is). */
  surfaces?: readonly InstallSurface[];
  /** `global`: user-wide hooks for every project (`init --global`); default `project`. */
  scope?: InstallScope;
  /** Also write legacy Kiro IDE 0.x `.kiro.hook` files. */
  legacyIde?: boolean;
  /** The user's own Kiro CLI agents (`.kiro/agents/<name>.json`) to add the hooks to. */
  kiroAgents?: readonly string[];
  /** Kiro CLI's major version; default: asked of `kiro-cli --version` when it is on PATH. */
  kiroCliMajor?: number;
  /** Environment: `HOME`, `KIRO_LEARN_HOME`, `PATH`. */
  env?: NodeJS.ProcessEnv;
  /** Node binary the hooks run; default: the fastest Node ≥ 20.16 (`chooseNode`). */
  node?: string | NodeChoice;
  /**
   * curl for the hooks' fast path (no Node while the collector is up); default: the one on
   * the PATH. `false`: hooks always run the Node shim.
   */
  curl?: string | false;
  /**
   * bash for the hooks' fast path, ahead of curl (it starts in a fraction of curl's time);
   * default: the first on the PATH that is 4.4 or newer and opens `/dev/tcp` sockets.
   * `false`: curl only.
   */
  bash?: string | false;
  /** Directory holding the built hook bundles; default: this package's `dist/bin`. */
  bundleDir?: string;
  /** How the kiro-learn MCP server starts on this machine; no MCP registration when absent. */
  mcpServer?: McpLaunch;
  /** The compressor agent definition (`~/.kiro/agents/kiro-learn-compressor.json`); written only where Kiro is installed. */
  compressorAgent?: Record<string, unknown>;
}

/** What `kiro-learn uninstall` removes. */
export interface UninstallOptions {
  /** A directory inside the project. */
  cwd: string;
  /** `global`: what `init --global` wrote; default `project`. */
  scope?: InstallScope;
  /** Environment: `HOME`, `KIRO_LEARN_HOME`. */
  env?: NodeJS.ProcessEnv;
  /** Also remove what all projects share: the data dir, the hook scripts, the compressor agent. */
  purge?: boolean;
}

/** Every change of one init or uninstall, computed before anything is written. */
export interface Plan {
  /** The project root (the home directory for `global`). */
  root: string;
  /** Agents covered. */
  surfaces: InstallSurface[];
  /** The changes, in the order they are applied. */
  changes: FileChange[];
  /** The data dir (created 0700 before anything is written into it). */
  data?: string;
  /** What the user still has to do, one line each. */
  notes?: string[];
}

/**
 * Computes what `init` changes, reading but never writing. Throws a ShimsError (nothing
 * written) when a file it must edit is not valid JSON or the directory is not a project.
 */
export function planInit(options: InitOptions): Plan {
  const env = options.env ?? process.env;
  const scope = options.scope ?? 'project';
  const { root, home, data } = locate(options.cwd, env, scope);
  const probe = prober(env);
  const surfaces = [...(options.surfaces ?? detectSurfaces(home, env))];
  const show = shower(root, home);
  const node =
    typeof options.node === 'string'
      ? { path: options.node, version: nodeVersion(options.node, env) ?? process.versions.node }
      : (options.node ?? chooseNode(process.execPath, env));
  const bundleDir = options.bundleDir ?? defaultBundleDir();
  const curl = options.curl === false ? undefined : (options.curl ?? findCurl(env));
  const cat = options.bash === false ? undefined : findCat(env);
  const bash = cat && (options.bash === false ? undefined : (options.bash ?? findBash(env)));
  const kiroCliMajor =
    options.kiroCliMajor ?? (surfaces.includes('kiro-cli') ? kiroCliVersion(env) : undefined);
  const ctx: InstallContext = {
    root,
    home,
    data,
    scope,
    surfaces,
    legacyIde: options.legacyIde ?? false,
    ...(kiroCliMajor !== undefined ? { kiroCliMajor } : {}),
    ...(options.kiroAgents ? { kiroAgents: options.kiroAgents } : {}),
    mcp: options.mcpServer !== undefined,
    show,
    hookCommand: (script, args, portable) => hookCommand(data, script, args, portable),
    mcpServer: (portable) => mcpRegistration(data, portable),
  };
  const installers = INSTALLERS.filter((installer) => surfaces.includes(installer.surface));

  // The hook scripts and their launcher live in the data dir, so hooks survive moving or
  // deleting the checkout; the agents' files name only the launcher.
  const changes: FileChange[] = [];
  const scripts = new Set<ShimSurface>(installers.flatMap((installer) => installer.scripts(ctx)));
  for (const script of scripts) {
    const source = readText(join(bundleDir, `${script}.cjs`));
    if (source === null) {
      throw new ShimsError(
        'missing_bundle',
        `the hook scripts are not built (${join(bundleDir, `${script}.cjs`)} is missing): run pnpm build, or reinstall kiro-learn`,
      );
    }
    changes.push(
      owned(
        join(data, 'bin', `kiro-learn-${script}.cjs`),
        show,
        source,
        `hook script for ${script}`,
      ),
    );
  }
  if (scripts.size > 0) {
    changes.push(
      owned(
        join(data, 'bin', HOOK_LAUNCHER),
        show,
        hookLauncher({ node, ...(curl ? { curl } : {}), ...(bash ? { bash, cat } : {}) }),
        `hook launcher (Node ${node.version}${bash || curl ? `; ${[bash, curl].filter(Boolean).join(' or ')} while the collector is up` : ''})`,
        0o755,
      ),
    );
  }
  if (options.mcpServer && installers.length > 0) {
    changes.push(
      owned(
        join(data, 'bin', MCP_LAUNCHER),
        show,
        mcpLauncher(options.mcpServer),
        'MCP server launcher',
        0o755,
      ),
    );
  }
  for (const installer of installers) changes.push(...installer.install(ctx));
  if (scope === 'project') {
    const personal = installers.flatMap((installer) => installer.personal?.(ctx) ?? []);
    changes.push(...gitignoreAdditions(root, personal, show));
  }
  // The compressor agent runs on Kiro CLI: written only where Kiro is, so that installing
  // for another agent never creates ~/.kiro (which would look like a Kiro install).
  if (options.compressorAgent && (probe.onPath('kiro-cli') || probe.isDir(join(home, '.kiro')))) {
    changes.push(
      owned(
        join(home, '.kiro', 'agents', 'kiro-learn-compressor.json'),
        show,
        serializeLike(options.compressorAgent, null),
        'compressor agent used to distil memory',
      ),
    );
  }
  const notes = installers.flatMap((installer) => installer.notes?.(ctx) ?? []);
  return { root, surfaces, changes: samePathOnce(changes), data, notes };
}

/** Computes what `uninstall` removes: everything of kiro-learn's, whichever agents init covered. */
export function planUninstall(options: UninstallOptions): Plan {
  const env = options.env ?? process.env;
  const scope = options.scope ?? 'project';
  const { root, home, data } = locate(options.cwd, env, scope);
  const show = shower(root, home);
  const ctx: InstallContext = {
    root,
    home,
    data,
    scope,
    surfaces: [...INSTALL_SURFACES],
    legacyIde: true,
    mcp: true,
    show,
    hookCommand: (script, args, portable) => hookCommand(data, script, args, portable),
    mcpServer: (portable) => mcpRegistration(data, portable),
  };
  const changes = INSTALLERS.flatMap((installer) => installer.uninstall(ctx));
  if (scope === 'project') changes.push(...gitignoreRemovals(root, show));
  if (options.purge) {
    changes.push(
      ...removed(
        join(home, '.kiro', 'agents', 'kiro-learn-compressor.json'),
        show,
        'compressor agent',
      ),
    );
    if (existsSync(data)) {
      changes.push({
        path: data,
        shown: show(data),
        action: 'delete',
        recursive: true,
        summary:
          'all kiro-learn data and the hook scripts every project shares: hooks left in other projects then do nothing (they exit 0) until kiro-learn init runs there again',
      });
    }
  }
  return { root, surfaces: [], changes: samePathOnce(changes) };
}

/** Applies a plan: every file written through a temp file and a rename. */
export function applyPlan(plan: Plan): void {
  if (
    plan.data &&
    plan.changes.some((c) => c.path.startsWith(plan.data + sep) && c.action !== 'delete')
  ) {
    // The data dir holds events and secrets' surroundings: only its owner may read it.
    try {
      mkdirSync(plan.data, { recursive: true, mode: 0o700 });
      // Where the hook launcher keeps a payload while it posts it (the fast path).
      mkdirSync(join(plan.data, 'tmp'), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new ShimsError(
        'write_failed',
        `could not create ${plan.data}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
  for (const change of plan.changes) {
    try {
      if (
        (change.action === 'create' || change.action === 'update') &&
        change.after !== undefined
      ) {
        writeAtomic(change.path, change.after, change.mode);
      } else if (change.action === 'delete') {
        rmSync(change.path, { recursive: change.recursive ?? false, force: true });
        pruneEmptyDirs(dirname(change.path), plan.root);
      }
    } catch (error) {
      throw new ShimsError(
        'write_failed',
        `could not write ${change.shown}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** The plan for people: one line per file, saying what happens, then what is left to do. */
export function formatPlan(plan: Plan, dryRun: boolean): string {
  const active = plan.changes.filter((change) => change.action !== 'unchanged');
  if (active.length === 0) return `kiro-learn: nothing to change in ${plan.root}\n`;
  const head = dryRun
    ? `kiro-learn would change (dry run, nothing written) in ${plan.root}:`
    : `kiro-learn changed in ${plan.root}:`;
  const width = Math.max(...active.map((change) => change.shown.length));
  const lines = active.map(
    (change) => `  ${change.action.padEnd(7)} ${change.shown.padEnd(width)}  ${change.summary}`,
  );
  return `${[head, ...lines].join('\n')}\n`;
}

/**
 * The agents found on this machine: a program on the PATH or a config directory in the
 * home directory. None found means all: `init` should still leave a working set-up.
 */
export function detectSurfaces(home: string, env: NodeJS.ProcessEnv): InstallSurface[] {
  const { onPath, isDir } = prober(env);
  const found = INSTALLERS.filter((installer) => installer.detect(home, onPath, isDir)).map(
    (installer) => installer.surface,
  );
  return found.length > 0 ? found : [...INSTALL_SURFACES];
}

function prober(env: NodeJS.ProcessEnv) {
  return {
    onPath: (name: string) =>
      (env['PATH'] ?? '').split(delimiter).some((dir) => {
        if (!dir) return false;
        try {
          accessSync(join(dir, name), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
    isDir: (path: string) => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

/** Kiro CLI's major version from `kiro-cli --version`, or undefined when it does not say. */
function kiroCliVersion(env: NodeJS.ProcessEnv): number | undefined {
  const out = spawnSync('kiro-cli', ['--version'], {
    encoding: 'utf8',
    env: { PATH: env['PATH'] ?? '', HOME: env['HOME'] ?? '' },
    timeout: 5000,
  });
  const match = /(\d+)\.\d+/.exec(out.stdout ?? '');
  return out.status === 0 && match ? Number(match[1]) : undefined;
}

function locate(
  cwd: string,
  env: NodeJS.ProcessEnv,
  scope: InstallScope,
): { root: string; home: string; data: string } {
  if (!existsSync(cwd))
    throw new ShimsError(
      'not_a_directory',
      `${cwd} does not exist: run kiro-learn from inside your project`,
    );
  const home = env['HOME'] || homedir();
  const data = dataDir(env);
  if (scope === 'global') return { root: home, home, data };
  const identity = projectIdentity(cwd, { env, home });
  if (identity.source === 'global') {
    throw new ShimsError(
      'not_a_directory',
      `${cwd} is your home directory, not a project: cd into a project and run kiro-learn init there (or kiro-learn init --global for every project)`,
    );
  }
  return { root: identity.root, home, data };
}

/** Two agents may share a file (Kiro CLI v3 and Kiro IDE): it is changed once. */
function samePathOnce(changes: FileChange[]): FileChange[] {
  const seen = new Set<string>();
  return changes.filter((change) => !seen.has(change.path) && seen.add(change.path));
}

/** Removes directories init created and uninstall emptied, up to (not including) the root. */
function pruneEmptyDirs(dir: string, root: string): void {
  for (let at = dir; at.startsWith(root + sep); at = dirname(at)) {
    try {
      rmdirSync(at);
    } catch {
      return;
    }
  }
}

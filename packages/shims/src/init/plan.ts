import { spawnSync } from 'node:child_process';
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { dataDir, projectIdentity } from '@kiro-learn/schema/node';
import { defaultBundleDir } from '../bundles.js';
import { ShimsError } from '../errors.js';
import { detectSurfaces, type InstallSurface } from './detect.js';
import { readJsonObject, readText, sameJson, serializeLike, writeAtomic } from './json-file.js';
import {
  type ClaudeGroup,
  MCP_SERVER_NAME,
  type McpLaunch,
  mergeClaudeHooks,
  mergeMcp,
  withoutClaudeHooks,
  withoutMcp,
} from './merge.js';

/** What `kiro-learn init` installs, and where. */
export interface InitOptions {
  /** A directory inside the project; the project root is detected from it. */
  cwd: string;
  /** Agents to install for; default: the ones found on this machine (all when none is). */
  surfaces?: readonly InstallSurface[];
  /** Also write legacy Kiro IDE 0.x `.kiro.hook` files. */
  legacyIde?: boolean;
  /** Environment: `HOME`, `KIRO_LEARN_HOME`, `PATH`. */
  env?: NodeJS.ProcessEnv;
  /** Node binary the hook commands run; default: the one running init. */
  node?: string;
  /** Directory holding the built hook bundles; default: this package's `dist/bin`. */
  bundleDir?: string;
  /** How agents start the kiro-learn MCP server; no MCP registration when absent. */
  mcpServer?: McpLaunch;
  /** The compressor agent definition (`~/.kiro/agents/kiro-learn-compressor.json`); not written when absent. */
  compressorAgent?: Record<string, unknown>;
}

/** What `kiro-learn uninstall` removes. */
export interface UninstallOptions {
  /** A directory inside the project. */
  cwd: string;
  /** Environment: `HOME`, `KIRO_LEARN_HOME`. */
  env?: NodeJS.ProcessEnv;
  /** Also remove what all projects share: the data dir, the hook scripts, the compressor agent. */
  purge?: boolean;
}

/** One file init or uninstall touches. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** The path for people: relative to the project root, or `~/…`. */
  shown: string;
  /** What happens to it. */
  action: 'create' | 'update' | 'delete' | 'unchanged';
  /** The text after the change (create and update). */
  after?: string;
  /** A directory removed with everything in it (purge of the data dir). */
  recursive?: boolean;
  /** What changes, in a few words. */
  summary: string;
}

/** Every change of one init or uninstall, computed before anything is written. */
export interface Plan {
  /** The project root. */
  root: string;
  /** Agents covered. */
  surfaces: InstallSurface[];
  /** The changes, in the order they are applied. */
  changes: FileChange[];
}

const KIRO_HOOKS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop'] as const;
const KIRO_AGENT_HOOKS = ['agentSpawn', 'userPromptSubmit', 'postToolUse', 'stop'] as const;
const LEGACY_IDE_HOOKS = [
  ['prompt', 'promptSubmit'],
  ['tool', 'postToolUse'],
  ['stop', 'agentStop'],
] as const;
const BUNDLES = ['kiro', 'kiro-ide', 'claude-code'] as const;

/**
 * Computes what `init` changes, reading but never writing. Throws a ShimsError (nothing
 * written) when a file it must edit is not valid JSON or the directory is not a project.
 */
export function planInit(options: InitOptions): Plan {
  const env = options.env ?? process.env;
  const { root, home, data } = locate(options.cwd, env);
  const surfaces = [...(options.surfaces ?? detectSurfaces(home, env))];
  const show = shower(root, home);
  const node = options.node ?? stableNode(process.execPath, env);
  const bundleDir = options.bundleDir ?? defaultBundleDir();
  const script = (entry: string) => join(data, 'bin', `kiro-learn-${entry}.cjs`);
  const command = (entry: string, ...args: string[]) =>
    [node, script(entry), ...args].map(shellQuote).join(' ');
  const changes: FileChange[] = [];
  const kiro = surfaces.includes('kiro-cli') || surfaces.includes('kiro-ide');

  // The hook scripts live in the data dir, so hooks survive moving or deleting the checkout.
  const entries = BUNDLES.filter(
    (entry) =>
      (entry === 'kiro' && kiro) ||
      (entry === 'kiro-ide' && options.legacyIde && surfaces.includes('kiro-ide')) ||
      (entry === 'claude-code' && surfaces.includes('claude-code')),
  );
  for (const entry of entries) {
    const source = readText(join(bundleDir, `${entry}.cjs`));
    if (source === null) {
      throw new ShimsError(
        'missing_bundle',
        `the hook scripts are not built (${join(bundleDir, `${entry}.cjs`)} is missing): run pnpm build, or reinstall kiro-learn`,
      );
    }
    changes.push(owned(script(entry), show, source, `hook script for ${entry}`));
  }

  if (kiro) {
    const hooks = KIRO_HOOKS.map((trigger) => ({
      name: `kiro-learn-${trigger.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase())}`,
      trigger,
      // Which agent runs them is not in their payloads: the command says so.
      action: {
        type: 'command',
        command: surfaces.includes('kiro-ide') ? command('kiro', 'kiro-ide') : command('kiro'),
      },
      timeout: 10,
      enabled: true,
    }));
    changes.push(
      owned(
        join(root, '.kiro', 'hooks', 'kiro-learn.json'),
        show,
        serializeLike({ version: 'v1', hooks }, null),
        'Kiro workspace hooks (v1)',
      ),
    );
  }
  if (surfaces.includes('kiro-cli')) {
    const agent = {
      name: 'kiro-learn',
      description:
        'The default tools plus kiro-learn memory: hooks record each turn and add relevant memory.',
      prompt: null,
      ...(options.mcpServer ? { mcpServers: { [MCP_SERVER_NAME]: options.mcpServer } } : {}),
      tools: ['*'],
      allowedTools: [],
      resources: [],
      hooks: Object.fromEntries(
        KIRO_AGENT_HOOKS.map((hook) => [
          hook,
          [
            hook === 'postToolUse'
              ? { matcher: '*', command: command('kiro') }
              : { command: command('kiro') },
          ],
        ]),
      ),
      includeMcpJson: true,
    };
    changes.push(
      owned(
        join(root, '.kiro', 'agents', 'kiro-learn.json'),
        show,
        serializeLike(agent, null),
        'Kiro CLI agent "kiro-learn" (for Kiro CLI before v3: kiro-cli chat --agent kiro-learn)',
      ),
    );
  }
  if (options.legacyIde && surfaces.includes('kiro-ide')) {
    for (const [event, trigger] of LEGACY_IDE_HOOKS) {
      const hook = {
        enabled: true,
        name: `kiro-learn ${event}`,
        description: `Sends ${trigger} to kiro-learn`,
        version: '1',
        when: { type: trigger },
        // biome-ignore lint/suspicious/noThenProperty: the .kiro.hook format names it so
        then: { type: 'runCommand', command: command('kiro-ide', event) },
      };
      changes.push(
        owned(
          join(root, '.kiro', 'hooks', `kiro-learn-${event}.kiro.hook`),
          show,
          serializeLike(hook, null),
          `legacy Kiro IDE ${trigger} hook`,
        ),
      );
    }
  }
  if (kiro && options.mcpServer) {
    const launch = options.mcpServer;
    changes.push(
      merged(
        join(root, '.kiro', 'settings', 'mcp.json'),
        show,
        (value, shown) => mergeMcp(value, launch, shown),
        'adds the kiro-learn MCP server',
      ),
    );
  }
  if (surfaces.includes('claude-code')) {
    const group = (matcher?: string): ClaudeGroup => ({
      ...(matcher ? { matcher } : {}),
      hooks: [{ type: 'command', command: command('claude-code') }],
    });
    const groups = {
      SessionStart: group(),
      UserPromptSubmit: group(),
      PostToolUse: group('*'),
      PostToolUseFailure: group('*'),
      PreCompact: group(),
      Stop: group(),
      SessionEnd: group(),
    };
    changes.push(
      merged(
        join(root, '.claude', 'settings.json'),
        show,
        (value, shown) => mergeClaudeHooks(value, groups, shown),
        'adds kiro-learn hooks',
      ),
    );
    if (options.mcpServer) {
      const launch = options.mcpServer;
      changes.push(
        merged(
          join(root, '.mcp.json'),
          show,
          (value, shown) => mergeMcp(value, launch, shown),
          'adds the kiro-learn MCP server',
        ),
      );
    }
  }
  if (options.compressorAgent) {
    changes.push(
      owned(
        join(home, '.kiro', 'agents', 'kiro-learn-compressor.json'),
        show,
        serializeLike(options.compressorAgent, null),
        'compressor agent used to distil memory',
      ),
    );
  }
  return { root, surfaces, changes };
}

/** Computes what `uninstall` removes: everything of kiro-learn's, whichever surfaces init covered. */
export function planUninstall(options: UninstallOptions): Plan {
  const env = options.env ?? process.env;
  const { root, home, data } = locate(options.cwd, env);
  const show = shower(root, home);
  const changes: FileChange[] = [];
  const remove = (path: string, summary: string) => {
    if (existsSync(path)) changes.push({ path, shown: show(path), action: 'delete', summary });
  };
  remove(join(root, '.kiro', 'hooks', 'kiro-learn.json'), 'Kiro workspace hooks');
  remove(join(root, '.kiro', 'agents', 'kiro-learn.json'), 'Kiro CLI agent "kiro-learn"');
  for (const [event] of LEGACY_IDE_HOOKS) {
    remove(join(root, '.kiro', 'hooks', `kiro-learn-${event}.kiro.hook`), 'legacy Kiro IDE hook');
  }
  for (const [path, edit, summary] of [
    [join(root, '.kiro', 'settings', 'mcp.json'), withoutMcp, 'removes the kiro-learn MCP server'],
    [join(root, '.claude', 'settings.json'), withoutClaudeHooks, 'removes kiro-learn hooks'],
    [join(root, '.mcp.json'), withoutMcp, 'removes the kiro-learn MCP server'],
  ] as const) {
    if (!existsSync(path)) continue;
    const change = merged(path, show, (value) => edit(value), summary);
    // What init created and left otherwise empty goes entirely.
    if (change.after !== undefined && sameJson(JSON.parse(change.after), {})) {
      changes.push({ path, shown: change.shown, action: 'delete', summary });
    } else if (change.action !== 'unchanged') changes.push(change);
  }
  if (options.purge) {
    remove(join(home, '.kiro', 'agents', 'kiro-learn-compressor.json'), 'compressor agent');
    if (existsSync(data)) {
      changes.push({
        path: data,
        shown: show(data),
        action: 'delete',
        recursive: true,
        summary: 'all kiro-learn data, spool and hook scripts',
      });
    }
  }
  return { root, surfaces: [], changes };
}

/** Applies a plan: every file written through a temp file and a rename. */
export function applyPlan(plan: Plan): void {
  for (const change of plan.changes) {
    try {
      if (
        (change.action === 'create' || change.action === 'update') &&
        change.after !== undefined
      ) {
        writeAtomic(change.path, change.after);
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

/** The plan for people: one line per file, saying what happens. */
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

function locate(cwd: string, env: NodeJS.ProcessEnv): { root: string; home: string; data: string } {
  if (!existsSync(cwd))
    throw new ShimsError(
      'not_a_directory',
      `${cwd} does not exist: run kiro-learn from inside your project`,
    );
  const home = env['HOME'] || homedir();
  const identity = projectIdentity(cwd, { env, home });
  if (identity.source === 'global') {
    throw new ShimsError(
      'not_a_directory',
      `${cwd} is your home directory, not a project: cd into a project and run kiro-learn init there`,
    );
  }
  return { root: identity.root, home, data: dataDir(env) };
}

function owned(
  path: string,
  show: (path: string) => string,
  after: string,
  summary: string,
): FileChange {
  const before = readText(path);
  const action = before === null ? 'create' : before === after ? 'unchanged' : 'update';
  return { path, shown: show(path), action, after, summary };
}

function merged(
  path: string,
  show: (path: string) => string,
  edit: (value: Record<string, unknown>, shown: string) => Record<string, unknown>,
  summary: string,
): FileChange {
  const shown = show(path);
  const file = readJsonObject(path, shown);
  const next = edit(file.value, shown);
  if (file.text !== null && sameJson(next, file.value))
    return { path, shown, action: 'unchanged', summary };
  return {
    path,
    shown,
    action: file.text === null ? 'create' : 'update',
    after: serializeLike(next, file.text),
    summary,
  };
}

function shower(root: string, home: string): (path: string) => string {
  return (path) => {
    const inRoot = relative(root, path);
    if (inRoot && !inRoot.startsWith('..') && !isAbsolute(inRoot)) return inRoot;
    const inHome = relative(home, path);
    if (inHome && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~${sep}${inHome}`;
    return path;
  };
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

/** Quotes a word for the POSIX shell hooks run in, only when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The Node a hook command should start. Normally the one running `init`; but when that is
 * the private Node the repository's `pnpmw` wrapper installed under `.tools/`, a hook
 * pointing at it would break when the checkout moves, so a Node ≥ 20 (all the hook bundles
 * need) found on PATH outside any `.tools/` wins.
 */
export function stableNode(execPath: string, env: NodeJS.ProcessEnv): string {
  if (!execPath.split(sep).includes('.tools')) return execPath;
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir || dir.split(sep).includes('.tools')) continue;
    const candidate = join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], {
      encoding: 'utf8',
      env: { PATH: env['PATH'] ?? '' },
      timeout: 5000,
    }).stdout?.trim();
    if (version && Number(version.split('.')[0]) >= 20) return candidate;
  }
  return execPath;
}

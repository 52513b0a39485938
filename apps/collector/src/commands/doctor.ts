import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { dataDir } from '@kiro-learn/schema/node';
import {
  atLeast,
  chooseNode,
  HOOK_LAUNCHER,
  HOOK_NODE_FLOOR,
  launcherTransport,
  nodePathReasons,
  nodeStartMs,
  nodeVersion,
} from '@kiro-learn/shims';
import { CORRUPT_DATABASE_HELP, checkDatabase } from '@kiro-learn/storage';
import { isFileLocked } from '@kiro-learn/storage/lock';
import { loadSettings } from '../config/load.js';
import type { CollectorSettings } from '../config/settings.js';
import {
  api,
  cliAddress,
  otherDataDir,
  otherDataDirHelp,
  probeRunning,
} from '../lifecycle/client.js';
import { daemonFiles, readPidFile } from '../lifecycle/files.js';
import { hookScriptsReport, REFRESH_COMMAND } from '../lifecycle/hook-scripts.js';
import { redactUrl, type StorageHealth } from '../storage.js';
import { VERSION } from '../version.js';
import { line, parseCommandArgs } from './args.js';
import { teamChecks } from './doctor-team.js';
import { describeStorage, semanticLine } from './status.js';
import type { Command, CommandIO } from './types.js';

type Level = 'ok' | 'warn' | 'fail';
interface Check {
  level: Level;
  what: string;
  /** What to do about it, when not ok. */
  fix?: string;
}

export const doctor: Command = {
  name: 'doctor',
  summary:
    'check Node, settings, the port, the data dir, the compressor agent, hook files and the team server',
  usage: `kiro-learn doctor

Runs every check and says what to fix. Exit code 1 when a check failed.`,
  async run(args, io) {
    parseCommandArgs('doctor', args, {});
    const checks = await runChecks(io);
    const mark: Record<Level, string> = { ok: '✓', warn: '!', fail: '✗' };
    for (const check of checks) {
      line(io.stdout, `${mark[check.level]} ${check.what}`);
      if (check.fix) line(io.stdout, `    → ${check.fix}`);
    }
    const failed = checks.filter((c) => c.level === 'fail').length;
    line(
      io.stdout,
      failed === 0 ? '\nkiro-learn looks healthy.' : `\n${failed} problem(s) to fix.`,
    );
    return failed === 0 ? 0 : 1;
  },
};

async function runChecks(io: CommandIO): Promise<Check[]> {
  const checks: Check[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push(
    major >= 22
      ? { level: 'ok', what: `Node ${process.versions.node}` }
      : {
          level: 'fail',
          what: `Node ${process.versions.node} is too old`,
          fix: 'install Node 22 or newer',
        },
  );

  const loaded = loadSettings(io.env);
  if (loaded.config) checks.push({ level: 'ok', what: `settings valid (${loaded.file})` });
  else
    checks.push({
      level: 'fail',
      what: `settings invalid (${loaded.file})`,
      fix: loaded.errors.join('; '),
    });
  for (const warning of loaded.warnings) checks.push({ level: 'warn', what: `setting ${warning}` });

  const address = cliAddress(io.env);
  checks.push(dataDirCheck(address.home));
  // The SQLite file, when that is the storage (PostgreSQL is checked below).
  const database = loaded.config?.storage.url
    ? undefined
    : databaseCheck(daemonFiles(address.home).database);
  if (database) checks.push(database);

  // A collector of this data dir (it holds the lock) that is slow to answer on a loaded
  // machine is waited for, never mistaken for another program on the port.
  const files = daemonFiles(address.home);
  const answered = await probeRunning(address, files.lock);
  // Another data dir's collector is not this one's: none of its answers count as this one's.
  const other = otherDataDir(answered, address.home);
  const health: typeof answered = other === undefined ? answered : { ok: false };
  if (other !== undefined) {
    const { held, fix } = otherDataDirHelp(address, other, answered.pid);
    checks.push({ level: 'fail', what: `collector for ${address.home} not running: ${held}`, fix });
  } else if (health.ok) {
    checks.push({
      level: 'ok',
      what: `collector running (pid ${health.pid ?? '?'}) at ${address.baseUrl}`,
    });
  } else if (await portFree(address.host, address.port)) {
    checks.push({
      level: 'warn',
      what: `collector not running; port ${address.port} is free`,
      fix: 'start it with: kiro-learn start',
    });
  } else if (isFileLocked(files.lock)) {
    checks.push({
      level: 'fail',
      what: `the collector for ${address.home} (pid ${readPidFile(files.pid)?.pid ?? '?'}) runs but did not answer on ${address.baseUrl} within 10 s`,
      fix: 'it may be busy or stuck: see kiro-learn logs; if it stays so, kiro-learn restart',
    });
  } else {
    checks.push({
      level: 'fail',
      what: `port ${address.port} on ${address.host} is held by another program`,
      fix: `stop that program, or set KIRO_LEARN_PORT (or "port" in ${join(address.home, 'settings.json')})`,
    });
  }

  if (loaded.config) checks.push(await storageCheck(loaded.config, address, health.ok));
  if (loaded.config) checks.push(extractorCheck(loaded.config.extraction, io.env));
  if (health.ok) checks.push(...(await breakerChecks(address)));
  if (health.ok) checks.push(...(await semanticCheck(address)));
  if (loaded.config) checks.push(...(await teamChecks(loaded.config.team, address, health.ok)));

  checks.push(hookCheck(io.cwd));
  const shared = sharedHooksCheck(io.cwd, io.env['HOME'] ?? '');
  if (shared) checks.push(shared);
  const plugin = pluginCheck(io.cwd, io.env);
  if (plugin) checks.push(plugin);
  const node = hookNodeCheck(dataDir(io.env), io.env);
  if (node) checks.push(node);
  const path = hookPathCheck(dataDir(io.env), io.env);
  if (path) checks.push(path);
  checks.push(hookScriptsCheck(address.home));
  return checks;
}

/** kiro-learn's version beside the hook scripts' in the data dir (old ones after an upgrade). */
function hookScriptsCheck(home: string): Check {
  const report = hookScriptsReport(home);
  const what = `kiro-learn ${VERSION}; ${report.summary}`;
  return report.state === 'stale'
    ? {
        level: 'warn',
        what,
        fix: `refresh them: ${REFRESH_COMMAND} (the collector refreshes them when it starts)`,
      }
    : { level: 'ok', what };
}

/**
 * Which Node the installed hooks run on (the launcher init wrote names it), whether it
 * still runs and meets the hooks' floor, and whether a faster one is on the PATH now.
 */
function hookNodeCheck(data: string, env: NodeJS.ProcessEnv): Check | undefined {
  let launcher: string;
  try {
    launcher = readFileSync(join(data, 'bin', HOOK_LAUNCHER), 'utf8');
  } catch {
    return undefined; // init has not run: the hook check says so
  }
  const quoted = /^exec ('(?:[^']|'\\'')*'|\S+) "\$s"/m.exec(launcher)?.[1];
  const path = quoted?.startsWith("'") ? quoted.slice(1, -1).replaceAll(`'\\''`, "'") : quoted;
  const version = path ? nodeVersion(path, env) : undefined;
  if (!path || !version || !atLeast(version, HOOK_NODE_FLOOR)) {
    return {
      level: 'fail',
      what: `hooks run on ${path ?? 'an unknown Node'}${version ? ` (Node ${version})` : ', which does not run'}`,
      fix: `install Node ${HOOK_NODE_FLOOR} or newer, then run kiro-learn init again`,
    };
  }
  // A faster Node is worth a warning only when there is a choice: the rule measures then.
  const best = chooseNode(process.execPath, env);
  if (best.path !== path && best.startMs !== undefined) {
    if (best.startMs < nodeStartMs(path) * 0.9) {
      return {
        level: 'warn',
        what: `hooks run on Node ${version} (${path}); Node ${best.version} (${best.path}) starts faster`,
        fix: 'run kiro-learn init again to switch',
      };
    }
  }
  return { level: 'ok', what: `hooks run on Node ${version} (${path})` };
}

/**
 * Which path hooks take, and why: the fast path (sh + bash or curl to the collector, no Node) or
 * the Node shim. The launcher's own rules say why not; when they allow it, one test hook
 * through the installed launcher shows it (the fast path says nothing on stderr, the shim
 * says why it recorded nothing).
 */
function hookPathCheck(data: string, env: NodeJS.ProcessEnv): Check | undefined {
  const launcherFile = join(data, 'bin', HOOK_LAUNCHER);
  let launcher: string;
  try {
    launcher = readFileSync(launcherFile, 'utf8');
  } catch {
    return undefined; // init has not run: the hook check says so
  }
  const reasons = nodePathReasons(launcher, env);
  const transport = launcherTransport(launcher);
  if (reasons.length > 0) {
    const fixable =
      !transport || reasons.some((r) => /is gone|are gone|is missing|takes no hooks/.test(r));
    return {
      level: fixable ? 'warn' : 'ok',
      what: `hooks take the Node path: ${reasons.join('; ')}`,
      ...(fixable
        ? {
            fix: /has no fast path/.test(reasons[0]!)
              ? 'install curl (or bash 4.4 or newer), then run kiro-learn init again: hooks then start no Node while the collector is up'
              : /takes no hooks/.test(reasons[0]!)
                ? 'restart the collector on this release (kiro-learn restart); a collector that asks for a token keeps hooks on the Node path'
                : 'run kiro-learn init again',
          }
        : {}),
    };
  }
  const script = readdirSync(join(data, 'bin'))
    .map((name) => /^kiro-learn-(.+)\.cjs$/.exec(name)?.[1])
    .find((name) => name && name !== 'kiro-ide' && name !== 'shim');
  if (!script) return undefined;
  const probe = spawnSync('/bin/sh', [launcherFile, script], {
    input: '{}',
    env: { ...env, KIRO_LEARN_AUTOSTART: '0' },
    encoding: 'utf8',
    timeout: 15_000,
  });
  if (probe.status === 0 && probe.stderr === '') {
    return {
      level: 'ok',
      what: `hooks take the fast path: sh + ${transport}${/(^|\/)bash$/.test(transport ?? '') ? ' (/dev/tcp) + cat' : ''} to the collector, no Node`,
    };
  }
  return {
    level: 'warn',
    what: 'hooks take the Node path: the collector did not take a test hook on the fast path',
    fix: 'see kiro-learn logs; a hook still records through the Node shim meanwhile',
  };
}

/**
 * The storage backend: the SQLite file, or the PostgreSQL server (asked through the
 * running collector, else connected to directly, without changing anything).
 */
async function storageCheck(
  settings: CollectorSettings,
  address: ReturnType<typeof cliAddress>,
  running: boolean,
): Promise<Check> {
  const { url } = settings.storage;
  if (url === undefined) return { level: 'ok', what: `storage: SQLite in ${address.home}` };
  if (running) {
    try {
      const { storage } = await api<{ storage?: StorageHealth }>(address, '/v1/status');
      if (storage?.ok) return { level: 'ok', what: `storage: ${describeStorage(storage)}` };
      if (storage) {
        return {
          level: 'fail',
          what: `storage: ${describeStorage(storage)}`,
          fix: 'check that the PostgreSQL server runs and accepts this collector (storage.url)',
        };
      }
    } catch {
      // fall through to a direct check
    }
  }
  const location = redactUrl(url);
  try {
    const { probePostgres } = await import('@kiro-learn/storage/postgres');
    const probe = await probePostgres(url, { schema: settings.storage.schema });
    return {
      level: 'ok',
      what: `storage: PostgreSQL ${probe.version} at ${location} (${probe.latencyMs.toFixed(1)} ms, ${probe.migrations.length} migrations applied)`,
    };
  } catch (error) {
    return {
      level: 'fail',
      what: `storage: PostgreSQL at ${location} does not answer (${(error instanceof Error ? error.message : String(error)).replaceAll(url, location)})`,
      fix: 'start the server, or correct storage.url (KIRO_LEARN_STORAGE_URL)',
    };
  }
}

function extractorCheck(
  extraction: { mode: 'auto' | 'acp' | 'builtin'; command: string },
  env: NodeJS.ProcessEnv,
): Check {
  if (extraction.mode === 'builtin') {
    return { level: 'ok', what: 'extractor: built-in rules (extraction.mode is builtin)' };
  }
  const program = extraction.command.split(/\s+/)[0] ?? '';
  if (program && onPath(program, env)) {
    return { level: 'ok', what: `compressor agent found: ${program}` };
  }
  return extraction.mode === 'acp'
    ? {
        level: 'fail',
        what: `compressor agent "${program}" not found on PATH, and extraction.mode is acp: every extraction fails`,
        fix: 'install Kiro CLI, point extraction.command at another ACP agent, or set extraction.mode to auto (KIRO_LEARN_EXTRACTOR=auto)',
      }
    : {
        level: 'warn',
        what: `compressor agent "${program}" not found on PATH`,
        fix: 'install Kiro CLI, or set extraction.command; until then memories come from the built-in extractor',
      };
}

/** Whether the running collector has its embedding model, and what to do when not. */
async function semanticCheck(address: ReturnType<typeof cliAddress>): Promise<Check[]> {
  let semantic: Parameters<typeof semanticLine>[0] | undefined;
  try {
    ({ semantic } = await api<{ semantic?: Parameters<typeof semanticLine>[0] }>(
      address,
      '/v1/status',
    ));
  } catch {
    return [];
  }
  if (!semantic) return [];
  const what = semanticLine(semantic);
  const checks: Check[] = [];
  if (semantic.state === 'on' && semantic.slow) {
    checks.push({ level: 'warn', what: semantic.slow.what, fix: semantic.slow.fix });
  }
  if (semantic.state === 'on') {
    const p = semantic.prompts;
    if (p && p.timedOut + p.failed > 0) {
      return [
        {
          level: 'warn',
          what,
          fix: 'prompts were answered without semantic search: give the machine more CPU, or raise retrieval.budgetMs in settings.json',
        },
        ...checks,
      ];
    }
    return checks.length > 0 ? checks : [{ level: 'ok', what }];
  }
  if (semantic.state === 'loading')
    return [{ level: 'ok', what: `${what} (retrieval is lexical until then)` }];
  if (semantic.state === 'off') {
    return [
      {
        level: 'warn',
        what,
        fix: 'set semantic.enabled to true in settings.json to find memories asked in other words',
      },
    ];
  }
  return [
    {
      level: 'warn',
      what,
      fix: 'check semantic.modelDir (a directory with tokenizer.json and model.onnx), or remove it to use the built-in model; reinstall kiro-learn if the built-in model is missing',
    },
  ];
}

interface ProjectView {
  namespace: string;
  breaker: { state: string; consecutiveFailures: number; openUntil?: string };
  lastRun?: { status: string; error?: string };
  overCeiling: boolean;
}

/** Projects whose extraction is paused by the circuit breaker, or whose buffer is full. */
async function breakerChecks(address: ReturnType<typeof cliAddress>): Promise<Check[]> {
  let projects: ProjectView[];
  try {
    ({ projects } = await api<{ projects: ProjectView[] }>(address, '/v1/status'));
  } catch {
    return [];
  }
  const checks: Check[] = [];
  for (const p of projects) {
    if (p.breaker.state !== 'closed') {
      const reason = p.lastRun?.error ? ` (last error: ${p.lastRun.error})` : '';
      checks.push({
        level: 'fail',
        what: `extraction paused for ${p.namespace}: circuit breaker ${p.breaker.state} after ${p.breaker.consecutiveFailures} failures${reason}`,
        fix: `fix the cause (kiro-learn logs); it retries by itself${p.breaker.openUntil ? ` at ${p.breaker.openUntil}` : ''}, or press "Extract now" in the viewer`,
      });
    }
    if (p.overCeiling) {
      checks.push({
        level: 'warn',
        what: `pending buffer of ${p.namespace} is full: new events are stored but not extracted`,
        fix: 'let extraction catch up (kiro-learn status), or raise buffer.ceilingBytes',
      });
    }
  }
  if (checks.length === 0 && projects.length > 0) {
    checks.push({ level: 'ok', what: `extraction running for ${projects.length} project(s)` });
  }
  return checks;
}

function dataDirCheck(home: string): Check {
  if (!existsSync(home)) {
    return {
      level: 'warn',
      what: `data dir ${home} does not exist yet`,
      fix: 'kiro-learn start creates it',
    };
  }
  try {
    accessSync(home, constants.W_OK | constants.R_OK);
  } catch {
    return {
      level: 'fail',
      what: `data dir ${home} is not writable`,
      fix: `fix its owner or mode: chmod 700 ${home}`,
    };
  }
  const mode = statSync(home).mode & 0o777;
  if (mode & 0o077) {
    return {
      level: 'warn',
      what: `data dir ${home} is readable by other users (mode ${mode.toString(8)})`,
      fix: `chmod 700 ${home}`,
    };
  }
  return { level: 'ok', what: `data dir ${home}` };
}

/** SQLite's quick integrity check of the database, when there is one yet. */
function databaseCheck(path: string): Check | undefined {
  if (!existsSync(path)) return undefined;
  const report = checkDatabase(path);
  if (report.ok) return { level: 'ok', what: `database ${path} passes its integrity check` };
  return {
    level: 'fail',
    what: `database ${path} is damaged: ${report.problems.join('; ')}`,
    fix: CORRUPT_DATABASE_HELP,
  };
}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  if (program.includes('/')) return existsSync(program);
  return (env['PATH'] ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));
}

/** Any hook or MCP file of this project that mentions kiro-learn, one list per agent. */
function hookCheck(cwd: string): Check {
  const candidates = [
    join(cwd, '.claude', 'settings.json'),
    join(cwd, '.claude', 'settings.local.json'),
    join(cwd, '.mcp.json'),
    ...listJson(join(cwd, '.kiro', 'agents')),
    ...listJson(join(cwd, '.kiro', 'hooks')),
    ...listJson(join(cwd, '.kiro', 'settings')),
    join(cwd, '.codex', 'hooks.json'),
    join(cwd, '.gemini', 'settings.json'),
    join(cwd, '.cursor', 'hooks.json'),
    join(cwd, '.github', 'hooks', 'kiro-learn.json'),
    join(cwd, '.clinerules', 'hooks', 'TaskStart'),
    join(cwd, '.opencode', 'plugins', 'kiro-learn.js'),
    join(cwd, '.augment', 'settings.local.json'),
    join(cwd, '.windsurf', 'hooks.json'),
  ];
  const found = candidates.filter((file) => mentionsKiroLearn(file));
  return found.length > 0
    ? {
        level: 'ok',
        what: `hooks installed in ${cwd}: ${found.map((f) => f.slice(cwd.length + 1)).join(', ')}`,
      }
    : { level: 'warn', what: `no kiro-learn hooks in ${cwd}`, fix: 'run: kiro-learn init' };
}

/**
 * The Claude Code plugin, where it is enabled (user, project or local settings, or
 * installed): its hooks post with curl while the collector is up, else run
 * `kiro-learn-shim` from the PATH, and do nothing without either.
 */
function pluginCheck(cwd: string, env: NodeJS.ProcessEnv): Check | undefined {
  const home = env['HOME'] ?? homedir();
  const enabledIn = (file: string): boolean => {
    try {
      const { enabledPlugins } = JSON.parse(readFileSync(file, 'utf8')) as {
        enabledPlugins?: Record<string, unknown>;
      };
      return Object.entries(enabledPlugins ?? {}).some(
        ([id, on]) => id.startsWith('kiro-learn@') && on !== false,
      );
    } catch {
      return false;
    }
  };
  const installed = (() => {
    try {
      return /"kiro-learn@/.test(
        readFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8'),
      );
    } catch {
      return false;
    }
  })();
  const enabled =
    installed ||
    [
      join(home, '.claude', 'settings.json'),
      join(cwd, '.claude', 'settings.json'),
      join(cwd, '.claude', 'settings.local.json'),
    ].some(enabledIn);
  if (!enabled) return undefined;
  const shim = whichOnPath('kiro-learn-shim', env);
  // The plugin's launcher posts with curl while the collector is up, and runs the shim else.
  const curl = whichOnPath('curl', env);
  return shim
    ? {
        level: 'ok',
        what: `Claude Code plugin kiro-learn: its hooks ${curl ? `post with ${curl} while the collector is up, else ` : ''}run ${shim}`,
      }
    : {
        level: 'warn',
        what: `Claude Code plugin kiro-learn is enabled, but kiro-learn-shim is not on the PATH: its hooks ${curl ? 'record only while the collector is up (with curl), and do nothing when it is down' : 'do nothing'}`,
        fix: 'put kiro-learn on the PATH: ./pnpmw kiro-learn install in a kiro-learn checkout (or, after the first release, ONNXRUNTIME_NODE_INSTALL=skip npm install -g kiro-learn)',
      };
}

function whichOnPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function mentionsKiroLearn(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes('kiro-learn');
  } catch {
    return false;
  }
}

/**
 * Claude Code's hook files are also run by Cursor (with its third-party configs option
 * on), VS Code agent mode and Copilot CLI: said plainly, with why no turn is stored twice.
 */
function sharedHooksCheck(cwd: string, home: string): Check | undefined {
  const claude = [
    join(cwd, '.claude', 'settings.local.json'),
    join(cwd, '.claude', 'settings.json'),
    join(home, '.claude', 'settings.json'),
  ].some(mentionsKiroLearn);
  if (!claude) return undefined;
  const others = [
    ...(mentionsKiroLearn(join(cwd, '.cursor', 'hooks.json')) ||
    mentionsKiroLearn(join(home, '.cursor', 'hooks.json'))
      ? [
          'Cursor runs them when "Include third-party Plugins, Skills, and other configs" is on (Settings → Rules, Skills, Subagents)',
        ]
      : []),
    ...(mentionsKiroLearn(join(cwd, '.github', 'hooks', 'kiro-learn.json'))
      ? ['VS Code agent mode and Copilot CLI run them beside .github/hooks/']
      : []),
  ];
  if (others.length === 0) return undefined;
  return {
    level: 'ok',
    what: `Claude Code's hooks also run in other agents: ${others.join('; ')}. Each turn is recorded once, as the agent's that ran it (its payload says which); turn the option off to run only the agent's own hooks`,
  };
}

function listJson(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => /\.json$|\.kiro\.hook$/.test(name))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

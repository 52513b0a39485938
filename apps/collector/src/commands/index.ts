import { dataDir } from '@kiro-learn/schema/node';
import { CollectorError } from '../errors.js';
import { hookScriptsReport, REFRESH_COMMAND } from '../lifecycle/hook-scripts.js';
import { VERSION } from '../version.js';
import { line } from './args.js';
import type { Command, CommandIO } from './types.js';

export type { Command, CommandIO } from './types.js';

/**
 * Every `kiro-learn` command, in `--help` order, each loaded only when it runs: a CLI start
 * pays for the one command it runs (`status` needs no storage engine, no zod schemas, no
 * MCP SDK), which is most of what `kiro-learn <command>` costs. Add a command: one file,
 * one line here.
 */
const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  start: () => import('./start.js').then((m) => m.start),
  stop: () => import('./stop.js').then((m) => m.stop),
  restart: () => import('./restart.js').then((m) => m.restart),
  status: () => import('./status.js').then((m) => m.status),
  logs: () => import('./logs.js').then((m) => m.logs),
  doctor: () => import('./doctor.js').then((m) => m.doctor),
  search: () => import('./search.js').then((m) => m.search),
  reindex: () => import('./reindex.js').then((m) => m.reindex),
  install: () => import('./install.js').then((m) => m.install),
  init: () => import('./init.js').then((m) => m.init),
  uninstall: () => import('./uninstall.js').then((m) => m.uninstall),
  demo: () => import('./demo.js').then((m) => m.demo),
  forget: () => import('./forget.js').then((m) => m.forget),
  export: () => import('./export.js').then((m) => m.exportCommand),
  import: () => import('./import.js').then((m) => m.importCommand),
  backup: () => import('./backup.js').then((m) => m.backup),
  restore: () => import('./restore.js').then((m) => m.restore),
  gc: () => import('./gc.js').then((m) => m.gc),
  pause: () => import('./pause.js').then((m) => m.pause),
  resume: () => import('./pause.js').then((m) => m.resume),
  team: () => import('./team/index.js').then((m) => m.team),
};

/** The command names, in `--help` order. */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** One command by name (its module loaded now), or undefined when there is none. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]!() : undefined;
}

/** Every command, loaded (for `--help`, and tools that list them). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map((name) => LOADERS[name]!()));
}

async function help(): Promise<string> {
  const commands = await loadCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `kiro-learn ${VERSION}: a local memory layer for AI coding agents`,
    '',
    'Usage: kiro-learn <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "kiro-learn <command> --help shows a command's options. Data lives in ~/.kiro-learn",
    '(KIRO_LEARN_HOME); settings in its settings.json or KIRO_LEARN_* variables.',
  ].join('\n');
}

/** Runs `kiro-learn <argv>`; resolves to the exit code and never throws. */
export async function runCli(argv: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    line(name === undefined ? io.stderr : io.stdout, await help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    // The version alone first (scripts read it), then the hook scripts in the data dir.
    line(io.stdout, VERSION);
    const scripts = hookScriptsReport(dataDir(io.env));
    const fix = scripts.state === 'stale' ? `: ${REFRESH_COMMAND} refreshes them` : '';
    line(io.stdout, `${scripts.summary}${fix}`);
    return 0;
  }
  const command = await loadCommand(name);
  if (!command) {
    line(
      io.stderr,
      `kiro-learn: unknown command "${name}". Commands: ${COMMAND_NAMES.join(', ')} (kiro-learn --help)`,
    );
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    line(io.stdout, `Usage: ${command.usage}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CollectorError) {
      line(
        io.stderr,
        error.message.startsWith('kiro-learn') ? error.message : `kiro-learn: ${error.message}`,
      );
      if (error.code === 'port_in_use' && /already running/.test(error.message)) return 0;
      return error.code === 'usage' ? 2 : 1;
    }
    line(
      io.stderr,
      `kiro-learn ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

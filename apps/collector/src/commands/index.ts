import { dataDir } from '@kiro-learn/schema/node';
import { CollectorError } from '../errors.js';
import { hookScriptsReport, REFRESH_COMMAND } from '../lifecycle/hook-scripts.js';
import { VERSION } from '../version.js';
import { line } from './args.js';
import { backup } from './backup.js';
import { demo } from './demo.js';
import { doctor } from './doctor.js';
import { exportCommand } from './export.js';
import { forget } from './forget.js';
import { gc } from './gc.js';
import { importCommand } from './import.js';
import { init } from './init.js';
import { logs } from './logs.js';
import { pause, resume } from './pause.js';
import { reindex } from './reindex.js';
import { restart } from './restart.js';
import { restore } from './restore.js';
import { search } from './search.js';
import { start } from './start.js';
import { status } from './status.js';
import { stop } from './stop.js';
import { team } from './team.js';
import type { Command, CommandIO } from './types.js';
import { uninstall } from './uninstall.js';

export type { Command, CommandIO } from './types.js';

/** Every `kiro-learn` command, in `--help` order. Add a command: one file, one line here. */
export const COMMANDS: readonly Command[] = [
  start,
  stop,
  restart,
  status,
  logs,
  doctor,
  search,
  reindex,
  init,
  uninstall,
  demo,
  forget,
  exportCommand,
  importCommand,
  backup,
  restore,
  gc,
  pause,
  resume,
  team,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `kiro-learn ${VERSION}: a local memory layer for AI coding agents`,
    '',
    'Usage: kiro-learn <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "kiro-learn <command> --help shows a command's options. Data lives in ~/.kiro-learn",
    '(KIRO_LEARN_HOME); settings in its settings.json or KIRO_LEARN_* variables.',
  ].join('\n');
}

/** Runs `kiro-learn <argv>`; resolves to the exit code and never throws. */
export async function runCli(argv: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    line(name === undefined ? io.stderr : io.stdout, help());
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
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    line(
      io.stderr,
      `kiro-learn: unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')} (kiro-learn --help)`,
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

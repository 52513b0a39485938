import { closeSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** One start attempt per this window: the lock file's age. */
export const AUTOSTART_WINDOW_MS = 30_000;

/**
 * Starts the collector in the background (`kiro-learn start`, detached) without waiting
 * for it, so the hook that found it down returns at once and the next one finds it up. A
 * lock file in the data dir lets one hook per window start it. `KIRO_LEARN_AUTOSTART=0`
 * turns this off; `KIRO_LEARN_CLI` names the CLI script to run with this Node instead of
 * `kiro-learn` on the PATH. Returns whether a start was attempted.
 */
export function startCollectorInBackground(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  now: number = Date.now(),
): boolean {
  if (env['KIRO_LEARN_AUTOSTART'] === '0') return false;
  const lock = join(home, 'autostart.lock');
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    try {
      closeSync(openSync(lock, 'wx'));
    } catch {
      if (now - statSync(lock).mtimeMs < AUTOSTART_WINDOW_MS) return false;
      utimesSync(lock, now / 1000, now / 1000);
    }
    const cli = env['KIRO_LEARN_CLI'];
    const [command, args] = cli ? [process.execPath, [cli, 'start']] : ['kiro-learn', ['start']];
    // Loaded only here: most hooks find the collector up and never pay for child_process.
    const { spawn } = process.getBuiltinModule('node:child_process');
    // The hook launcher moves NODE_EXTRA_CA_CERTS aside (hooks never use TLS); the
    // collector's extraction agents may, so it gets the variable back.
    const moved = env['KIRO_LEARN_NODE_EXTRA_CA_CERTS'];
    const childEnv =
      moved && !env['NODE_EXTRA_CA_CERTS'] ? { ...env, NODE_EXTRA_CA_CERTS: moved } : env;
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env: childEnv });
    child.on('error', () => {
      // not installed on the PATH: the event is spooled either way
    });
    child.unref();
    return true;
  } catch {
    return false;
  }
}

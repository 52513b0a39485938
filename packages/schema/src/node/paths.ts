import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The data directory: `KIRO_LEARN_HOME`, else `~/.kiro-learn`. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['KIRO_LEARN_HOME'];
  return override ? resolve(override) : join(homedir(), '.kiro-learn');
}

/** Creates the data directory (mode 0700) when missing and returns its path. */
export function ensureDataDir(dir: string = dataDir()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The agents `init` can install into. */
export const INSTALL_SURFACES = ['kiro-cli', 'kiro-ide', 'claude-code'] as const;
export type InstallSurface = (typeof INSTALL_SURFACES)[number];

/**
 * The agents found on this machine: a program on the PATH or a config directory in the
 * home directory. None found means all: `init` should still leave a working set-up.
 */
export function detectSurfaces(home: string, env: NodeJS.ProcessEnv): InstallSurface[] {
  const onPath = (name: string) =>
    (env['PATH'] ?? '').split(delimiter).some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  const isDir = (path: string) => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  };
  const found: InstallSurface[] = [];
  if (onPath('kiro-cli') || onPath('q')) found.push('kiro-cli');
  if (onPath('kiro') || isDir(join(home, '.kiro'))) found.push('kiro-ide');
  if (onPath('claude') || isDir(join(home, '.claude'))) found.push('claude-code');
  return found.length > 0 ? found : [...INSTALL_SURFACES];
}

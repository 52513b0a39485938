import { dirname } from 'node:path';
import { installedHookScripts } from '@kiro-learn/shims';

/** The one command that brings old hook scripts up to date (the collector does it on start). */
export const REFRESH_COMMAND = 'kiro-learn restart';

/** The hook scripts `init` copied into the data dir, against this installation's. */
export interface HookScriptsReport {
  /** `current`: all are this installation's; `stale`: some are older; `none` installed. */
  state: 'current' | 'stale' | 'none';
  /** One line, e.g. `hook scripts 0.1.0 in /home/dev/.kiro-learn/bin`. */
  summary: string;
}

/** Describes the hook scripts in `home`, without changing them. */
export function hookScriptsReport(home: string, bundleDir?: string): HookScriptsReport {
  let scripts: ReturnType<typeof installedHookScripts>;
  try {
    scripts = installedHookScripts(home, bundleDir);
  } catch (error) {
    return { state: 'none', summary: `hook scripts: cannot be read (${(error as Error).message})` };
  }
  if (scripts.length === 0) {
    return {
      state: 'none',
      summary: 'hook scripts: none installed (kiro-learn init installs them)',
    };
  }
  const versions = [...new Set(scripts.map((s) => s.version ?? 'of an older release'))];
  const summary = `hook scripts ${versions.join(', ')} in ${dirname(scripts[0]!.file)}`;
  return scripts.every((s) => s.current)
    ? { state: 'current', summary }
    : { state: 'stale', summary: `${summary}, older than this kiro-learn` };
}

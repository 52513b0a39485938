import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { defaultBundleDir } from '../bundles.js';

/** One hook script `init` copied into the data dir, compared with this installation's. */
export interface HookScript {
  /** Absolute path in the data dir (`<data>/bin/kiro-learn-<entry>.cjs`). */
  file: string;
  /** The bundle it was copied from, in this installation. */
  source: string;
  /** The version it says it is (its first lines); `undefined` for scripts written before
   * hook scripts carried their version. */
  version: string | undefined;
  /** True when its bytes are this installation's bundle, byte for byte. */
  current: boolean;
}

/** Every bundle starts with this line (scripts/bundle.mjs writes it). */
const VERSION_LINE = /^\/\/ kiro-learn hook script (\S+)$/m;

/** The version a hook script carries, from its first lines. */
export function hookScriptVersion(text: string): string | undefined {
  return VERSION_LINE.exec(text.slice(0, 512))?.[1];
}

/** The installed hook scripts that this installation also builds, in name order. */
export function installedHookScripts(
  dataDir: string,
  bundleDir: string = defaultBundleDir(),
): HookScript[] {
  const bin = join(dataDir, 'bin');
  if (!existsSync(bin)) return [];
  return readdirSync(bin)
    .sort()
    .flatMap((name) => {
      const entry = /^kiro-learn-(.+\.cjs)$/.exec(name)?.[1];
      const source = entry && join(bundleDir, entry);
      if (!source || !existsSync(source)) return [];
      const file = join(bin, name);
      const installed = readFileSync(file);
      return [
        {
          file,
          source,
          version: hookScriptVersion(installed.toString('utf8')),
          current: installed.equals(readFileSync(source)),
        },
      ];
    });
}

/**
 * Rewrites every installed hook script that differs from this installation's bundle, by
 * rename (a hook starting meanwhile reads the old or the new file, never half of one).
 * Never adds a script `init` did not install. Returns the files rewritten.
 */
export function refreshHookScripts(
  dataDir: string,
  bundleDir: string = defaultBundleDir(),
): string[] {
  const refreshed: string[] = [];
  for (const script of installedHookScripts(dataDir, bundleDir)) {
    if (script.current) continue;
    const temp = `${script.file}.${process.pid}.tmp`;
    writeFileSync(temp, readFileSync(script.source), { mode: 0o600 });
    chmodSync(temp, statSync(script.file).mode);
    renameSync(temp, script.file);
    refreshed.push(script.file);
  }
  return refreshed;
}

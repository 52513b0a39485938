/**
 * How this kiro-learn runs: from a checkout of the repository, from what `kiro-learn
 * install` put on the PATH, or from a package manager's install (`npm install -g`). What
 * fixes a broken install depends on which, so every message that names a fix asks here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `kiro-learn install` records in the directory it installed into. */
export interface InstallRecord {
  /** The kiro-learn version installed. */
  version: string;
  /** The checkout it was built from. */
  from: string;
  /** When (ISO time). */
  at: string;
  /** The directory holding the program (this record's directory). */
  dir: string;
  /** The directory the three commands were written into. */
  bin: string;
  /** The commands written there (absolute paths). */
  commands: string[];
  /** The Node the `kiro-learn` command runs on. */
  node: { path: string; version: string };
  /** The Node the hook and MCP commands run on. */
  hookNode: { path: string; version: string };
}

/** The file name of the record, in the install directory. */
export const INSTALL_RECORD = 'kiro-learn-install.json';

export type Installation =
  | { kind: 'checkout'; root: string }
  | { kind: 'installed'; record: InstallRecord }
  | { kind: 'package'; dir: string };

/** This package's directory: `src/` and `dist/` sit one level below it. */
export function packageDir(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

/**
 * Which installation this process runs from. A checkout has the workspace file two levels
 * up; `kiro-learn install` leaves its record two levels up (`<dir>/node_modules/kiro-learn`).
 */
export function installation(dir: string = packageDir()): Installation {
  const root = join(dir, '..', '..');
  if (existsSync(join(root, 'pnpm-workspace.yaml')) && existsSync(join(root, 'pnpmw'))) {
    return { kind: 'checkout', root };
  }
  const record = readInstallRecord(root);
  if (record) return { kind: 'installed', record };
  return { kind: 'package', dir };
}

/** The record `kiro-learn install` left in `dir`, if it is one of its installs. */
export function readInstallRecord(dir: string): InstallRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dir, INSTALL_RECORD), 'utf8')) as InstallRecord;
    return typeof record.version === 'string' && typeof record.from === 'string'
      ? record
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one command that reinstalls kiro-learn with onnxruntime-node, the fast embedding
 * runtime (npm drops it without a word when its install script cannot reach its download
 * host; `ONNXRUNTIME_NODE_INSTALL=skip` skips that script, the CPU binaries ship in the
 * package).
 */
export function fastRuntimeFix(at: Installation = installation()): string {
  switch (at.kind) {
    case 'checkout':
      return `${join(at.root, 'pnpmw')} install --force`;
    case 'installed':
      return existsSync(join(at.record.from, 'pnpmw'))
        ? `${join(at.record.from, 'pnpmw')} kiro-learn install`
        : 'ONNXRUNTIME_NODE_INSTALL=skip npm install -g kiro-learn';
    case 'package':
      return 'ONNXRUNTIME_NODE_INSTALL=skip npm install -g kiro-learn';
  }
}

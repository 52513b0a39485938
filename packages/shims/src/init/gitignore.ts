import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FileChange, Shower } from './files.js';
import { readText } from './json-file.js';

/** The comment above the lines init adds; uninstall takes out the block it heads. */
const MARK = "# kiro-learn: personal settings with this machine's paths (kiro-learn init)";

/**
 * `.gitignore` with the personal files init writes (they hold this machine's paths, so a
 * `git add -A` must not commit them), under one marked block. Only in a git repository,
 * and only what git does not ignore already.
 */
export function gitignoreAdditions(
  root: string,
  personal: readonly string[],
  show: Shower,
): FileChange[] {
  if (personal.length === 0 || !existsSync(join(root, '.git'))) return [];
  const path = join(root, '.gitignore');
  const before = readText(path);
  const lines = (before ?? '').split(/\r?\n/);
  const missing = personal
    .map((file) => relative(root, file).split(sep).join('/'))
    .filter(
      (rel) => !lines.includes(rel) && !lines.includes(`/${rel}`) && !ignoredByGit(root, rel),
    );
  if (missing.length === 0) return [];
  const eol = before?.includes('\r\n') ? '\r\n' : '\n';
  const at = lines.indexOf(MARK);
  let after: string;
  if (at >= 0) {
    lines.splice(at + 1, 0, ...missing);
    after = lines.join(eol);
  } else {
    const head = before === null || before === '' ? '' : before.replace(/(\r?\n)*$/, eol) + eol;
    after = `${head}${[MARK, ...missing].join(eol)}${eol}`;
  }
  return [
    {
      path,
      shown: show(path),
      action: before === null ? 'create' : 'update',
      after,
      summary: `ignores ${missing.join(', ')} (personal: this machine's paths)`,
    },
  ];
}

/** `.gitignore` without the block init added (the file goes when nothing else was in it). */
export function gitignoreRemovals(root: string, show: Shower): FileChange[] {
  const path = join(root, '.gitignore');
  const before = readText(path);
  if (before === null) return [];
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const lines = before.split(/\r?\n/);
  const at = lines.indexOf(MARK);
  if (at < 0) return [];
  let end = at + 1;
  while (end < lines.length && lines[end]!.trim() !== '' && !lines[end]!.startsWith('#')) end++;
  // The blank line init put before its block goes with it.
  const start = at > 0 && lines[at - 1] === '' ? at - 1 : at;
  lines.splice(start, end - start);
  const after = lines.join(eol);
  const summary = 'stops ignoring the personal files kiro-learn wrote';
  return after.trim() === ''
    ? [{ path, shown: show(path), action: 'delete', summary }]
    : [{ path, shown: show(path), action: 'update', after, summary }];
}

/** True when git already ignores the path (a pattern such as `*.local.json`). */
function ignoredByGit(root: string, rel: string): boolean {
  const run = spawnSync('git', ['check-ignore', '-q', '--no-index', rel], {
    cwd: root,
    timeout: 5000,
    stdio: 'ignore',
  });
  return run.status === 0;
}

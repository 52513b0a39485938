import { existsSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { readJsonObject, readText, sameJson, serializeLike } from './json-file.js';

/** One file init or uninstall touches. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** The path for people: relative to the project root, or `~/…`. */
  shown: string;
  /** What happens to it. */
  action: 'create' | 'update' | 'delete' | 'unchanged';
  /** The text after the change (create and update). */
  after?: string;
  /** A directory removed with everything in it (purge of the data dir). */
  recursive?: boolean;
  /** File mode for a created file (the hook launchers are executable). */
  mode?: number;
  /** What changes, in a few words. */
  summary: string;
}

/** Paths for people: relative to the project root, `~/…` under the home directory. */
export type Shower = (path: string) => string;

export function shower(root: string, home: string): Shower {
  return (path) => {
    const inRoot = relative(root, path);
    if (inRoot && !inRoot.startsWith('..') && !isAbsolute(inRoot)) return inRoot;
    const inHome = relative(home, path);
    if (inHome && !inHome.startsWith('..') && !isAbsolute(inHome)) return `~${sep}${inHome}`;
    return path;
  };
}

/** A file kiro-learn owns whole: written as `after`. */
export function owned(
  path: string,
  show: Shower,
  after: string,
  summary: string,
  mode?: number,
): FileChange {
  const before = readText(path);
  const action = before === null ? 'create' : before === after ? 'unchanged' : 'update';
  return { path, shown: show(path), action, after, summary, ...(mode ? { mode } : {}) };
}

/** A JSON file of the user's that kiro-learn edits: `edit` gets its object, returns the next. */
export function merged(
  path: string,
  show: Shower,
  edit: (value: Record<string, unknown>, shown: string) => Record<string, unknown>,
  summary: string,
): FileChange {
  const shown = show(path);
  const file = readJsonObject(path, shown);
  const next = edit(file.value, shown);
  if (file.text !== null && sameJson(next, file.value))
    return { path, shown, action: 'unchanged', summary };
  return {
    path,
    shown,
    action: file.text === null ? 'create' : 'update',
    after: serializeLike(next, file.text),
    summary,
  };
}

/** A file kiro-learn owns whole, removed when present. */
export function removed(path: string, show: Shower, summary: string): FileChange[] {
  return existsSync(path) ? [{ path, shown: show(path), action: 'delete', summary }] : [];
}

/**
 * kiro-learn's part taken out of a user's JSON file; the file goes entirely when nothing
 * else was left in it (init created it).
 */
export function unmerged(
  path: string,
  show: Shower,
  edit: (value: Record<string, unknown>) => Record<string, unknown>,
  summary: string,
): FileChange[] {
  if (!existsSync(path)) return [];
  const change = merged(path, show, (value) => edit(value), summary);
  if (change.after !== undefined && sameJson(JSON.parse(change.after), {})) {
    return [{ path, shown: change.shown, action: 'delete', summary }];
  }
  return change.action === 'unchanged' ? [] : [change];
}

import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ShimsError } from '../errors.js';

/** A JSON file as found: its text (null when absent) and its parsed object. */
export interface JsonFile {
  /** File path. */
  path: string;
  /** The bytes as text, or null when the file does not exist. */
  text: string | null;
  /** The parsed object; `{}` when the file does not exist. */
  value: Record<string, unknown>;
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ShimsError('write_failed', `cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * Reads a JSON object that init must edit. Refuses (never guesses) when the file is not a
 * JSON object: editing it would risk the user's own settings. `shown` names it for people.
 */
export function readJsonObject(path: string, shown: string): JsonFile {
  const text = readText(path);
  if (text === null) return { path, text, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new ShimsError(
      'invalid_json',
      `${shown} is not valid JSON (${(error as Error).message}); fix it or move it aside, then run kiro-learn init again`,
    );
  }
  if (!isObject(value)) {
    throw new ShimsError(
      'invalid_json',
      `${shown} holds JSON that is not an object; fix it or move it aside, then run kiro-learn init again`,
    );
  }
  return { path, text, value };
}

/** Serializes like the file it replaces: same indentation, line ending and final newline. */
export function serializeLike(value: unknown, like: string | null): string {
  const indent = (like && /^([ \t]+)"/m.exec(like)?.[1]) || 2;
  const eol = like?.includes('\r\n') ? '\r\n' : '\n';
  const json = JSON.stringify(value, null, indent).replace(/\n/g, eol);
  return like === null || /\r?\n$/.test(like) ? json + eol : json;
}

/**
 * Writes through a temp file and a rename, so a crash never leaves a half-written file.
 * A symlink is written through (its target changes, the link stays, as in a dotfiles
 * repository), and an existing file keeps its mode; `mode` is for a new file.
 */
export function writeAtomic(path: string, text: string, mode?: number): void {
  const target = linkTarget(path);
  mkdirSync(dirname(target), { recursive: true });
  let keep = mode;
  try {
    keep = statSync(target).mode & 0o7777;
  } catch {
    // a new file
  }
  const temp = `${target}.kiro-learn-${process.pid}.tmp`;
  writeFileSync(temp, text, keep === undefined ? {} : { mode: keep });
  if (keep !== undefined) chmodSync(temp, keep); // the umask must not narrow it
  renameSync(temp, target);
}

/** The file a path names, following symlinks, even to a target that does not exist yet. */
function linkTarget(path: string): string {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(at).isSymbolicLink()) return at;
      link = readlinkSync(at);
    } catch {
      return at;
    }
    at = resolve(dirname(at), link);
  }
  return at;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => key in b && sameJson(a[key], b[key]))
  );
}

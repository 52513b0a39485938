import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';

// Whether kiro-learn may capture in a project: the one check every hook makes before it
// records or injects anything, and the collector repeats for events that reach it anyway
// (a spool replay, an old hook). Paused (`kiro-learn pause`), a repository that opts out
// with a `.kiro-learn-ignore` file at its root, a directory the `capture.exclude` globs
// name, or the home directory itself (unless `capture.homeDirectory` is true).
// Cheap when nothing is off: one failed read of the pause file, one stat, and the
// settings file the hook reads anyway.

/** The pause state file in the data dir, written by `kiro-learn pause` / `resume`. */
export const PAUSE_FILE = 'paused.json';
/** A file at a repository's root that keeps kiro-learn out of it. */
export const IGNORE_FILE = '.kiro-learn-ignore';

/** One pause: since when, and until when (none: until `kiro-learn resume`). */
export interface Pause {
  at: string;
  until?: string;
  /** The project directory the pause was asked for (for display). */
  root?: string;
}

/** What `paused.json` holds: a pause of everything, and pauses per namespace. */
export interface PauseState {
  all?: Pause;
  projects?: Record<string, Pause>;
}

/** The `capture` settings the check needs (from settings.json, or the collector's settings). */
export interface CaptureRules {
  /** Directory globs never captured (`~/tmp/**`, `/work/scratch/*`). */
  exclude?: readonly string[];
  /** Capture sessions started in the home directory itself. */
  homeDirectory?: boolean;
}

/** The project a hook runs in, as projectIdentity describes it. */
export interface CaptureTarget {
  namespace: string;
  root: string;
  /** `global` for the home directory and its ancestors. */
  source?: string;
}

/** Why capture is off, or undefined when it is on. */
export type CaptureOff = 'paused' | 'ignored' | 'excluded' | 'home';

/** The pause state; an absent or unreadable file means nothing is paused. */
export function readPauseState(home: string): PauseState {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(home, PAUSE_FILE), 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as PauseState) : {};
  } catch {
    return {};
  }
}

/** Writes the pause state (an empty state is still written: it says "resumed"). */
export function writePauseState(home: string, state: PauseState): void {
  writeFileSync(join(home, PAUSE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** The pause in force for a namespace at `now`, if any (everything first, then the project). */
export function activePause(state: PauseState, namespace: string, now: number): Pause | undefined {
  const live = (pause: Pause | undefined) =>
    pause && (pause.until === undefined || Date.parse(pause.until) > now) ? pause : undefined;
  return live(state.all) ?? live(state.projects?.[namespace]);
}

/** The `capture` key of settings.json; defaults when missing or unreadable. */
export function readCaptureRules(home: string): CaptureRules {
  try {
    const file = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as {
      capture?: CaptureRules;
    };
    return file.capture && typeof file.capture === 'object' ? file.capture : {};
  } catch {
    return {};
  }
}

/**
 * Why nothing may be captured for `target` at `now`, or undefined when capture is on.
 * `rules` default to the data dir's settings.json. Never throws.
 */
export function captureOff(
  home: string,
  target: CaptureTarget,
  now: number = Date.now(),
  rules: CaptureRules = readCaptureRules(home),
): CaptureOff | undefined {
  if (activePause(readPauseState(home), target.namespace, now)) return 'paused';
  if (target.source === 'global' && rules.homeDirectory !== true) return 'home';
  if (statSync(join(target.root, IGNORE_FILE), { throwIfNoEntry: false })) return 'ignored';
  if (rules.exclude?.some((glob) => globMatches(glob, target.root))) return 'excluded';
  return undefined;
}

/**
 * Whether a directory or one of its ancestors matches a glob: `~` is the home directory,
 * `*` any characters but `/`, `**` any depth (`~/tmp/**` matches `~/tmp` and everything
 * under it), `?` one character. So `~/clients/*` keeps out every project under it.
 */
export function globMatches(glob: string, dir: string, home: string = homedir()): boolean {
  const expanded = glob === '~' || glob.startsWith('~/') ? home + glob.slice(1) : glob;
  const pattern = resolve(expanded).split(sep).join('/');
  let source = '';
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith('/**/', i)) [source, i] = [`${source}(?:/.*)?/`, i + 4];
    else if (pattern.startsWith('/**', i) && i + 3 === pattern.length)
      [source, i] = [`${source}(?:/.*)?`, i + 3];
    else if (pattern.startsWith('**', i)) [source, i] = [`${source}.*`, i + 2];
    else if (pattern[i] === '*') [source, i] = [`${source}[^/]*`, i + 1];
    else if (pattern[i] === '?') [source, i] = [`${source}[^/]`, i + 1];
    else [source, i] = [source + pattern[i]!.replace(/[.+^${}()|[\]\\]/g, '\\$&'), i + 1];
  }
  const regex = new RegExp(`^${source}$`);
  const path = resolve(dir).split(sep).join('/');
  for (let at = path; ; at = at.slice(0, at.lastIndexOf('/'))) {
    if (regex.test(at || '/')) return true;
    if (at === '' || at.lastIndexOf('/') < 0) return false;
  }
}

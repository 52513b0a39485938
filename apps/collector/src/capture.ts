import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '@kiro-learn/schema';
import {
  activePause,
  type CaptureOff,
  type CaptureRules,
  globMatches,
  IGNORE_FILE,
  PAUSE_FILE,
  type PauseState,
  readPauseState,
} from '@kiro-learn/shims';

/** Why an event must not be stored, or undefined when its project may be captured. */
export type CaptureGate = (event: Event) => CaptureOff | undefined;

/** How long a project root's `.kiro-learn-ignore` lookup is trusted. */
const IGNORE_TTL_MS = 2000;

/**
 * The collector's side of the hooks' capture check (`captureOff` in @kiro-learn/shims),
 * for events that reach it anyway: a spool replay, a hook from before the pause, another
 * client. Paused namespaces, ignored repositories and excluded directories are refused.
 * The pause file is re-read only when it changes; ignore files are looked up at most
 * every two seconds per project root.
 */
export function createCaptureGate(
  home: string,
  rules: CaptureRules,
  now: () => number = Date.now,
): CaptureGate {
  const file = join(home, PAUSE_FILE);
  let cached: { stamp: string; state: PauseState } | undefined;
  const ignored = new Map<string, { at: number; ignored: boolean }>();

  const pauses = (): PauseState => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return {};
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    if (cached?.stamp !== stamp) cached = { stamp, state: readPauseState(home) };
    return cached.state;
  };
  const isIgnored = (root: string): boolean => {
    const at = now();
    const known = ignored.get(root);
    if (known && at - known.at < IGNORE_TTL_MS) return known.ignored;
    const found = statSync(join(root, IGNORE_FILE), { throwIfNoEntry: false }) !== undefined;
    if (ignored.size > 10_000) ignored.clear();
    ignored.set(root, { at, ignored: found });
    return found;
  };

  return (event) => {
    if (activePause(pauses(), event.namespace, now())) return 'paused';
    const root = event.source.project_path;
    if (!root) return undefined;
    if (isIgnored(root)) return 'ignored';
    if (rules.exclude?.some((glob) => globMatches(glob, root))) return 'excluded';
    return undefined;
  };
}

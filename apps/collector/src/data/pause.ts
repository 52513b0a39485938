import {
  activePause,
  type Pause,
  type PauseState,
  readPauseState,
  writePauseState,
} from '@kiro-learn/shims';

/** A pause as the API and `status` show it. */
export interface PauseView {
  /** Every project, or one namespace. */
  scope: 'all' | string;
  since: string;
  /** When capture comes back by itself; absent: at `kiro-learn resume`. */
  until?: string;
  root?: string;
}

/** Pauses capture of one namespace (or everything) for `forMs`, or until resumed. */
export function pause(
  home: string,
  options: { namespace?: string; root?: string; forMs?: number; now: number },
): PauseView {
  const state = live(readPauseState(home), options.now);
  const entry: Pause = {
    at: new Date(options.now).toISOString(),
    ...(options.forMs !== undefined
      ? { until: new Date(options.now + options.forMs).toISOString() }
      : {}),
    ...(options.root ? { root: options.root } : {}),
  };
  if (options.namespace === undefined) state.all = entry;
  else state.projects = { ...state.projects, [options.namespace]: entry };
  writePauseState(home, state);
  return view(options.namespace ?? 'all', entry);
}

/** Resumes one namespace, or everything (every pause goes). Returns whether one was in force. */
export function resume(home: string, options: { namespace?: string; now: number }): boolean {
  const state = live(readPauseState(home), options.now);
  const had =
    options.namespace === undefined
      ? state.all !== undefined || Object.keys(state.projects ?? {}).length > 0
      : state.projects?.[options.namespace] !== undefined;
  if (options.namespace === undefined) writePauseState(home, {});
  else {
    delete state.projects?.[options.namespace];
    writePauseState(home, state);
  }
  return had;
}

/** The pauses in force at `now`. */
export function pauses(home: string, now: number): PauseView[] {
  const state = live(readPauseState(home), now);
  return [
    ...(state.all ? [view('all', state.all)] : []),
    ...Object.entries(state.projects ?? {}).map(([namespace, p]) => view(namespace, p)),
  ];
}

/** Whether a namespace is paused at `now`. */
export function isPaused(home: string, namespace: string, now: number): boolean {
  return activePause(readPauseState(home), namespace, now) !== undefined;
}

/** The state without pauses that have run out. */
function live(state: PauseState, now: number): PauseState {
  const on = (p: Pause | undefined) => p && (p.until === undefined || Date.parse(p.until) > now);
  const projects = Object.fromEntries(
    Object.entries(state.projects ?? {}).filter(([, p]) => on(p)),
  );
  return {
    ...(on(state.all) ? { all: state.all! } : {}),
    ...(Object.keys(projects).length > 0 ? { projects } : {}),
  };
}

function view(scope: string, pause: Pause): PauseView {
  return {
    scope,
    since: pause.at,
    ...(pause.until ? { until: pause.until } : {}),
    ...(pause.root ? { root: pause.root } : {}),
  };
}

/** `30m`, `1h`, `2d`, `90s` → milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/i.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2]!.toLowerCase()]!;
  const ms = Number(match[1]) * unit;
  return ms > 0 && ms <= 366 * 86_400_000 ? Math.round(ms) : undefined;
}

import type { EventBody, EventKind, Surface } from '@kiro-learn/schema';

/** The hook scripts: one per agent family, chosen by the hook's command line. */
export const SHIM_SURFACES = [
  'kiro',
  'kiro-ide',
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor',
  'copilot',
  'cline',
  'opencode',
  'augment',
  'windsurf',
] as const;
export type ShimSurface = (typeof SHIM_SURFACES)[number];

/**
 * The most a hook reads of its stdin; a bigger payload records nothing. The shim keeps no
 * more in memory, and the launcher's fast path writes no more to its copy on disk.
 */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** One hook invocation, understood: what to record and how to answer. */
export interface HookEvent {
  /** Surface recorded in the event's `source`. */
  surface: Surface;
  /** The agent's own name for the hook, for diagnostics. */
  hook: string;
  /** Event kind to record. */
  kind: EventKind;
  /** Event body, before the size cap. */
  body: EventBody;
  /** Working directory the payload names, if any. */
  cwd?: string;
  /** The agent's own session id, if the payload carries one. */
  sessionId?: string;
  /** A new session starts: a fresh file-based session id, and recent memory on stdout. */
  startsSession: boolean;
  /** A prompt: ask the collector for retrieval context and print it. */
  retrieve: boolean;
}

/** A mapped hook, or why nothing is recorded (`warn`: the user should hear about it). */
export type MapResult = { hook: HookEvent } | { skip: string; warn: boolean };

/** A JSON payload as an object whose fields may be anything or missing. */
export type Payload = Record<string, unknown>;

/** What an agent module's mapping gets: the parsed payload, the command line, the environment. */
export interface MapInput {
  /** The JSON payload from stdin (agents that pass none get `{}`). */
  payload: Payload;
  /** Words after the script on the hook's command line (the event, the surface). */
  args: readonly string[];
  /** The hook's environment (legacy Kiro IDE passes its payload in `USER_PROMPT`). */
  env: NodeJS.ProcessEnv;
}

/**
 * A payload as the agents document it, with every field possibly missing or of another
 * type: the agents change their formats between releases, so the mapping reads each field
 * through `str()` and friends. Types only: nothing of this exists at run time.
 */
export type Loose<T> = { [K in keyof T]?: unknown };

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function skip(reason: string, warn = false): MapResult {
  return { skip: reason, warn };
}

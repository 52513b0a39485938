import type { EventBody, EventKind, Surface } from '@kiro-learn/schema';

/** The entry points: one per agent family, chosen by the hook's command line. */
export const SHIM_SURFACES = ['kiro', 'kiro-ide', 'claude-code'] as const;
export type ShimSurface = (typeof SHIM_SURFACES)[number];

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

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function skip(reason: string, warn = false): MapResult {
  return { skip: reason, warn };
}

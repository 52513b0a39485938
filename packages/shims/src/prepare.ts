import { hostname } from 'node:os';
import type { Event } from '@kiro-learn/schema';
import { LIMITS } from '@kiro-learn/schema';
import { collectorAddress, projectIdentity } from '@kiro-learn/schema/node';
import { HOOK_ENTRIES } from './agents/entries.js';
import { buildEvent } from './event.js';
import type { HookEvent, MapResult, Payload, ShimSurface } from './hook.js';
import { isoTime } from './iso-time.js';
import { captureOff } from './paused.js';
import { fileSession } from './session.js';
import { capBody } from './truncate.js';
import { hookUlid } from './ulid.js';
import { SHIM_VERSION } from './version.js';

/**
 * One hook's input, wherever it runs: in the hook's own Node process (the shim), or in the
 * collector for the launcher's fast path (`POST /v1/hooks/:surface`), which hands over the
 * same bytes.
 */
export interface HookInput {
  /** Which hook script ran. */
  surface: ShimSurface;
  /** Words after the script on the command line: the event (legacy Kiro IDE), the surface. */
  args?: readonly string[];
  /** Raw stdin; undefined when not read (legacy Kiro IDE reads `USER_PROMPT`). */
  stdin?: Buffer;
  /** Environment: data dir (`KIRO_LEARN_HOME`), `KIRO_LEARN_ACTOR`, `USER_PROMPT`. */
  env: NodeJS.ProcessEnv;
  /** The hook's working directory, used when the payload names none. */
  cwd: string;
  /** Receives diagnostic lines, already prefixed `[kiro-learn]`. */
  stderr: (line: string) => void;
  /** Recorded as the event's `source.version`; the hook script's own version by default. */
  version?: string;
}

/** A hook understood: the event to store and whether it asks for context. */
export interface PreparedHook {
  /** The mapped hook (kind, body before the size cap, the agent's name for it). */
  hook: HookEvent;
  /** The wire event: scrubbed later, by whoever stores or spools it. */
  event: Event;
  /** Context to ask for with it: a prompt's, a new session's, or none. */
  retrieval: 'prompt' | 'session_start' | undefined;
  /** The data dir the hook's files (sessions, spool, pause state) live in. */
  home: string;
}

/**
 * Payload → event, the part of a hook that is the same on every path: map the payload with
 * the agent's module, find the project, apply pause, `.kiro-learn-ignore` and
 * `capture.exclude`, pick the session, cap the body. `hook` is undefined when the payload
 * maps to nothing; `prepared` is undefined when nothing is to be recorded (also when
 * capture is off for the project). Throws only on a bug; callers catch.
 */
export function prepareHook(input: HookInput): {
  hook?: HookEvent;
  prepared?: PreparedHook;
} {
  const warn = (message: string) => input.stderr(`[kiro-learn] ${message}\n`);
  const mapped = mapPayload(input, warn);
  if ('skip' in mapped) {
    if (mapped.warn) warn(`${mapped.skip}; nothing recorded`);
    return {};
  }
  const hook = mapped.hook;
  let cwd = hook.cwd;
  if (!cwd) {
    cwd = input.cwd;
    const entry = HOOK_ENTRIES[input.surface];
    if (entry.stdin && !entry.runsInProject)
      warn(`the ${hook.hook} payload has no cwd; using ${cwd}`);
  }
  const home = collectorAddress(input.env).home;
  const identity = projectIdentity(cwd, { env: input.env });
  const now = Date.now();
  // Paused, ignored or excluded: record nothing, inject nothing, say nothing.
  if (captureOff(home, identity, now)) return { hook };
  const sessionId =
    hook.sessionId ?? fileSession(home, hook.surface, identity.projectId, hook.startsSession, now);
  const capped = capBody(hook.body);
  if (capped.truncated) {
    warn(`the ${hook.hook} payload was over ${LIMITS.shimBodyBytes} bytes and was truncated`);
  }
  const event = buildEvent(
    { ...hook, body: capped.body },
    {
      identity,
      sessionId,
      eventId: hookUlid(now),
      validTime: isoTime(now),
      version: input.version ?? SHIM_VERSION,
      clientId: hostname().slice(0, 128) || 'localhost',
    },
  );
  const retrieval = hook.retrieve ? 'prompt' : hook.startsSession ? 'session_start' : undefined;
  return { hook, prepared: { hook, event, retrieval, home } };
}

/**
 * Stores a prepared hook (posts it, or ingests it in the collector) and returns the
 * context for the agent, if any.
 */
export type RecordHook = (prepared: PreparedHook) => Promise<string | undefined>;

/**
 * One hook from payload to answer, on either path: prepare, record, and what the agent
 * reads on stdout (its module's answer, on every path: some agents parse it). Never throws;
 * undefined means print nothing.
 */
export async function handleHook(
  input: HookInput,
  record: RecordHook,
): Promise<string | undefined> {
  const entry = HOOK_ENTRIES[input.surface];
  let hook: HookEvent | undefined;
  let context: string | undefined;
  try {
    const result = prepareHook(input);
    hook = result.hook;
    if (result.prepared) context = await record(result.prepared);
  } catch (error) {
    input.stderr(
      `[kiro-learn] hook failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  return entry.answer ? entry.answer(hook, context) : context;
}

/** The payload through the agent's module: bytes → JSON → mapped hook, or why not. */
function mapPayload(input: HookInput, warn: (message: string) => void): MapResult {
  const entry = HOOK_ENTRIES[input.surface];
  const args = input.args ?? [];
  if (!entry.stdin) return entry.map({ payload: {}, args, env: input.env });
  const bytes = input.stdin;
  if (!bytes || bytes.length === 0 || bytes.toString('latin1').trim() === '') {
    return { skip: 'no hook payload on stdin', warn: true };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    warn('the hook payload is not valid UTF-8; invalid bytes were replaced');
    text = new TextDecoder('utf-8').decode(bytes);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return { skip: `the hook payload is not JSON (${(error as Error).message})`, warn: true };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    return { skip: 'the hook payload is not a JSON object', warn: true };
  }
  return entry.map({ payload: payload as Payload, args, env: input.env });
}

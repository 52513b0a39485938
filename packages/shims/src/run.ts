import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Event, ExtraPattern, Scrubber } from '@kiro-learn/schema';
import { createScrubber, DEFAULTS, LIMITS, scrubEvent } from '@kiro-learn/schema';
import { type CollectorAddress, collectorAddress, projectIdentity } from '@kiro-learn/schema/node';
import { HOOK_ENTRIES } from './agents/entries.js';
import { startCollectorInBackground } from './autostart.js';
import { buildEvent } from './event.js';
import type { HookEvent, MapResult, Payload, ShimSurface } from './hook.js';
import { send } from './http.js';
import { isoTime } from './iso-time.js';
import { captureOff } from './paused.js';
import { fileSession } from './session.js';
import { type DeliveryOutcome, drainSpool, hasSpooled, spoolEvent } from './spool.js';
import { capBody } from './truncate.js';
import { hookUlid } from './ulid.js';
import { SHIM_VERSION } from './version.js';

/** One hook run's inputs and outputs, so tests can run it in-process. */
export interface RunOptions {
  /** Which entry point ran. */
  surface: ShimSurface;
  /** Words after the script on the command line: the event (legacy Kiro IDE), the surface. */
  args?: readonly string[];
  /** Raw stdin; undefined when not read (legacy Kiro IDE reads `USER_PROMPT`). */
  stdin?: Buffer;
  /** Environment: data dir, collector address, `USER_PROMPT`, `KIRO_LEARN_*`. */
  env: NodeJS.ProcessEnv;
  /** The process's working directory, used when the payload names none. */
  cwd: string;
  /** Receives context for the agent: the only thing ever written to stdout. */
  stdout: (text: string) => void;
  /** Receives diagnostic lines, already prefixed `[kiro-learn]`. */
  stderr: (line: string) => void;
}

/** How many spooled events one hook replays at most, and for how long. */
const REPLAY_EVENTS = 200;
const REPLAY_MS = 1000;

/**
 * Runs one hook: payload → Event → collector, context to stdout. Never throws and never
 * blocks the agent: a collector that is down gets the event spooled and a background start.
 */
export async function runHook(options: RunOptions): Promise<void> {
  const warn = (message: string) => options.stderr(`[kiro-learn] ${message}\n`);
  if (captureDisabled(options.env)) return;
  const entry = HOOK_ENTRIES[options.surface];
  let hook: HookEvent | undefined;
  let context: string | undefined;
  try {
    const mapped = mapInput(options, warn);
    if ('skip' in mapped) {
      if (mapped.warn) warn(`${mapped.skip}; nothing recorded`);
    } else {
      hook = mapped.hook;
      context = await record(options, hook, warn);
    }
  } catch (error) {
    warn(`hook failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Some agents parse what a hook prints: their module says what that is, on every path.
  const out = entry.answer ? entry.answer(hook, context) : context;
  if (out) options.stdout(out);
}

/** Posts the event (or spools it), replays the spool; returns the context for the agent. */
async function record(
  options: RunOptions,
  hook: HookEvent,
  warn: (message: string) => void,
): Promise<string | undefined> {
  let cwd = hook.cwd;
  if (!cwd) {
    cwd = options.cwd;
    const entry = HOOK_ENTRIES[options.surface];
    if (entry.stdin && !entry.runsInProject)
      warn(`the ${hook.hook} payload has no cwd; using ${cwd}`);
  }
  const address = collectorAddress(options.env);
  const home = address.home;
  const identity = projectIdentity(cwd, { env: options.env });
  const now = Date.now();
  // Paused, ignored or excluded: record nothing, inject nothing, say nothing.
  if (captureOff(home, identity, now)) return undefined;
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
      version: SHIM_VERSION,
      clientId: hostname().slice(0, 128) || 'localhost',
    },
  );

  const retrieval = hook.retrieve ? 'prompt' : hook.startsSession ? 'session_start' : undefined;
  const posted = await postEvent(address, event, retrieval);
  if (posted.outcome === 'retry') {
    // The spool is a store too: secrets, <private> spans and the user's own patterns
    // (privacy.extraPatterns) never reach the disk.
    spoolEvent(home, scrubEvent(event, spoolScrubber(home, options.env, warn)));
    const starting = startCollectorInBackground(home, options.env);
    warn(
      `the collector at ${address.baseUrl} did not take the event (${posted.reason}); ` +
        `kept in the spool${starting ? ', starting the collector' : ''}`,
    );
    return undefined;
  }
  if (posted.outcome === 'rejected') {
    warn(`the collector refused the ${hook.hook} event: ${posted.reason}`);
  }
  if (hasSpooled(home)) {
    await drainSpool(home, (spooled) => deliver(address, spooled), {
      maxEvents: REPLAY_EVENTS,
      deadline: Date.now() + REPLAY_MS,
    });
  }
  return posted.context;
}

/**
 * `KIRO_LEARN_CAPTURE=off` (also `0`, `false`, `no`): the hook does nothing at all. The
 * extraction agent kiro-learn starts runs with it, so its own hooks never feed on it.
 */
export function captureDisabled(env: NodeJS.ProcessEnv): boolean {
  const value = env['KIRO_LEARN_CAPTURE'];
  return value !== undefined && /^(?:off|0|false|no)$/i.test(value.trim());
}

function mapInput(options: RunOptions, warn: (message: string) => void): MapResult {
  const entry = HOOK_ENTRIES[options.surface];
  const args = options.args ?? [];
  if (!entry.stdin) return entry.map({ payload: {}, args, env: options.env });
  const bytes = options.stdin;
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
  return entry.map({ payload: payload as Payload, args, env: options.env });
}

type Posted =
  | { outcome: 'delivered'; context?: string }
  | { outcome: 'rejected'; reason: string; context?: undefined }
  | { outcome: 'retry'; reason: string; context?: undefined };

async function postEvent(
  address: CollectorAddress,
  event: Event,
  retrieve?: 'prompt' | 'session_start',
): Promise<Posted> {
  // `hook=1`: the collector stores a hook that fired twice (two configurations) once.
  const path =
    retrieve === 'prompt'
      ? '/v1/events?retrieve=true&hook=1'
      : retrieve === 'session_start'
        ? '/v1/events?retrieve=session_start&hook=1'
        : '/v1/events?hook=1';
  let answer: Awaited<ReturnType<typeof send>>;
  try {
    answer = await send(address, 'POST', path, JSON.stringify(event), DEFAULTS.shimTimeoutMs);
  } catch (error) {
    return {
      outcome: 'retry',
      reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
    };
  }
  const parsed = parseJson(answer.body) as {
    event_id?: unknown;
    stored?: unknown;
    error?: unknown;
    retrieval?: { context?: unknown };
  };
  if (answer.status >= 200 && answer.status < 300) {
    // Only the collector answers with the event's own id: a 2xx from another program on
    // the port would otherwise lose the event.
    if (parsed?.event_id !== event.event_id || typeof parsed.stored !== 'boolean') {
      return {
        outcome: 'retry',
        reason: `HTTP ${answer.status} from something that is not the collector`,
      };
    }
    const context = parsed.retrieval?.context;
    return typeof context === 'string' && context.length > 0
      ? { outcome: 'delivered', context }
      : { outcome: 'delivered' };
  }
  const reason = `HTTP ${answer.status}${typeof parsed?.error === 'string' ? `: ${parsed.error}` : ''}`;
  if (isTransient(answer.status)) return { outcome: 'retry', reason };
  // A refusal counts only from the collector (it marks its answers): another program's
  // 404 would drop the event for good.
  if (!COLLECTOR_HEADER.test(answer.head)) {
    return { outcome: 'retry', reason: `${reason} from something that is not the collector` };
  }
  return { outcome: 'rejected', reason };
}

/** The header the collector puts on every answer. */
const COLLECTOR_HEADER = /\r\nx-kiro-learn:/i;

/**
 * The scrubber for the spool: the built-in patterns plus the user's
 * `privacy.extraPatterns` (settings.json in the data dir, or the environment variable
 * `KIRO_LEARN_PRIVACY_EXTRA_PATTERNS` holding a JSON list), the collector's own rules.
 * Read only when an event is spooled; a pattern that does not compile is reported and
 * left out, never a reason to keep the event unscrubbed or lose it.
 */
function spoolScrubber(
  home: string,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Scrubber {
  let patterns: unknown;
  const fromEnv = env['KIRO_LEARN_PRIVACY_EXTRA_PATTERNS'];
  try {
    patterns = fromEnv
      ? JSON.parse(fromEnv)
      : (
          JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as {
            privacy?: { extraPatterns?: unknown };
          }
        )?.privacy?.extraPatterns;
  } catch {
    patterns = undefined;
  }
  const usable: ExtraPattern[] = [];
  for (const pattern of Array.isArray(patterns) ? (patterns as ExtraPattern[]) : []) {
    try {
      createScrubber({ extraPatterns: [pattern] });
      usable.push(pattern);
    } catch {
      warn(
        `privacy.extraPatterns has a pattern that is not a valid regular expression; it was not applied to the spool`,
      );
    }
  }
  return createScrubber({ extraPatterns: usable });
}

async function deliver(address: CollectorAddress, event: Event): Promise<DeliveryOutcome> {
  const posted = await postEvent(address, event);
  return posted.outcome;
}

function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

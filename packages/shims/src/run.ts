import { hostname } from 'node:os';
import type { Event } from '@kiro-learn/schema';
import { DEFAULTS, LIMITS, scrubEvent } from '@kiro-learn/schema';
import { type CollectorAddress, collectorAddress, projectIdentity } from '@kiro-learn/schema/node';
import { startCollectorInBackground } from './autostart.js';
import { buildEvent } from './event.js';
import type { MapResult, Payload, ShimSurface } from './hook.js';
import { send } from './http.js';
import { isoTime } from './iso-time.js';
import { captureOff } from './paused.js';
import { fileSession } from './session.js';
import { type DeliveryOutcome, drainSpool, hasSpooled, spoolEvent } from './spool.js';
import { mapClaudeCode } from './surfaces/claude-code.js';
import { mapKiro } from './surfaces/kiro.js';
import { mapKiroIde } from './surfaces/kiro-ide.js';
import { capBody } from './truncate.js';
import { hookUlid } from './ulid.js';
import { SHIM_VERSION } from './version.js';

/** One hook run's inputs and outputs, so tests can run it in-process. */
export interface RunOptions {
  /** Which entry point ran. */
  surface: ShimSurface;
  /** Event named on the command line (legacy Kiro IDE hooks). */
  event?: string;
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
  try {
    const mapped = mapInput(options, warn);
    if ('skip' in mapped) {
      if (mapped.warn) warn(`${mapped.skip}; nothing recorded`);
      return;
    }
    const hook = mapped.hook;
    let cwd = hook.cwd;
    if (!cwd) {
      cwd = options.cwd;
      if (options.surface !== 'kiro-ide') warn(`the ${hook.hook} payload has no cwd; using ${cwd}`);
    }
    const address = collectorAddress(options.env);
    const home = address.home;
    const identity = projectIdentity(cwd, { env: options.env });
    const now = Date.now();
    // Paused, ignored or excluded: record nothing, inject nothing, say nothing.
    if (captureOff(home, identity, now)) return;
    const sessionId =
      hook.sessionId ??
      fileSession(home, hook.surface, identity.projectId, hook.startsSession, now);
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
      // The spool is a store too: secrets and <private> spans never reach the disk.
      spoolEvent(home, scrubEvent(event));
      const starting = startCollectorInBackground(home, options.env);
      warn(
        `the collector at ${address.baseUrl} did not take the event (${posted.reason}); ` +
          `kept in the spool${starting ? ', starting the collector' : ''}`,
      );
      return;
    }
    if (posted.outcome === 'rejected') {
      warn(`the collector refused the ${hook.hook} event: ${posted.reason}`);
    }
    if (posted.context) options.stdout(posted.context);
    if (hasSpooled(home)) {
      await drainSpool(home, (spooled) => deliver(address, spooled), {
        maxEvents: REPLAY_EVENTS,
        deadline: Date.now() + REPLAY_MS,
      });
    }
  } catch (error) {
    warn(`hook failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function mapInput(options: RunOptions, warn: (message: string) => void): MapResult {
  if (options.surface === 'kiro-ide') {
    return mapKiroIde(options.event, options.env['USER_PROMPT'] ?? '');
  }
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
  return options.surface === 'claude-code'
    ? mapClaudeCode(payload as Payload)
    : mapKiro(payload as Payload);
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
  const path =
    retrieve === 'prompt'
      ? '/v1/events?retrieve=true'
      : retrieve === 'session_start'
        ? '/v1/events?retrieve=session_start'
        : '/v1/events';
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
    error?: unknown;
    retrieval?: { context?: unknown };
  };
  if (answer.status >= 200 && answer.status < 300) {
    const context = parsed?.retrieval?.context;
    return typeof context === 'string' && context.length > 0
      ? { outcome: 'delivered', context }
      : { outcome: 'delivered' };
  }
  const reason = `HTTP ${answer.status}${typeof parsed?.error === 'string' ? `: ${parsed.error}` : ''}`;
  return isTransient(answer.status)
    ? { outcome: 'retry', reason }
    : { outcome: 'rejected', reason };
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

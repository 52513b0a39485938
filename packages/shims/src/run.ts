import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Event, ExtraPattern, Scrubber } from '@kiro-learn/schema';
import { createScrubber, DEFAULTS, scrubEvent } from '@kiro-learn/schema';
import { type CollectorAddress, collectorAddress } from '@kiro-learn/schema/node';
import { startCollectorInBackground } from './autostart.js';
import { send } from './http.js';
import { type HookInput, handleHook, type PreparedHook } from './prepare.js';
import { type DeliveryOutcome, drainSpool, hasSpooled, spoolEvent } from './spool.js';

/** One hook run's inputs and outputs, so tests can run it in-process. */
export interface RunOptions extends Omit<HookInput, 'version'> {
  /** Receives context for the agent: the only thing ever written to stdout. */
  stdout: (text: string) => void;
}

/** How many spooled events one hook replays at most, and for how long. */
const REPLAY_EVENTS = 200;
const REPLAY_MS = 1000;
/**
 * How long the shim waits for the collector when the launcher's fast path just timed out
 * on it (`KIRO_LEARN_FAST_PATH=28`, curl's timeout): long enough for a busy collector to
 * say it has the event already, short enough that a stuck one does not cost the agent a
 * second full timeout before the event is spooled.
 */
const AFTER_FAST_PATH_TIMEOUT_MS = 500;

/**
 * Runs one hook: payload → Event → collector, context to stdout. Never throws and never
 * blocks the agent: a collector that is down gets the event spooled and a background start.
 */
export async function runHook(options: RunOptions): Promise<void> {
  if (captureDisabled(options.env)) return;
  const out = await handleHook(options, (prepared) => record(options, prepared));
  if (out) options.stdout(out);
}

/** Posts the event (or spools it), replays the spool; returns the context for the agent. */
async function record(options: RunOptions, prepared: PreparedHook): Promise<string | undefined> {
  const warn = (message: string) => options.stderr(`[kiro-learn] ${message}\n`);
  const { hook, event, retrieval, home } = prepared;
  const address = collectorAddress(options.env);
  // The spool is a store too: secrets, <private> spans and the user's own patterns
  // (privacy.extraPatterns) never reach the disk.
  const spool = () => spoolEvent(home, scrubEvent(event, spoolScrubber(home, options.env, warn)));
  // A session's last hook may not be waited for (Claude Code gives SessionEnd 1.5 s, and
  // exits meanwhile): it is on disk before anything else happens. Delivered as well, its
  // spooled copy replays as a duplicate id, which stores nothing.
  const spooledFirst = /^session_?end$/i.test(hook.hook);
  if (spooledFirst) spool();
  const timeoutMs =
    options.env['KIRO_LEARN_FAST_PATH'] === '28'
      ? AFTER_FAST_PATH_TIMEOUT_MS
      : DEFAULTS.shimTimeoutMs;
  const posted = await postEvent(address, event, retrieval, timeoutMs);
  if (posted.outcome === 'retry') {
    if (!spooledFirst) spool();
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

type Posted =
  | { outcome: 'delivered'; context?: string }
  | { outcome: 'rejected'; reason: string; context?: undefined }
  | { outcome: 'retry'; reason: string; context?: undefined };

async function postEvent(
  address: CollectorAddress,
  event: Event,
  retrieve?: 'prompt' | 'session_start',
  timeoutMs: number = DEFAULTS.shimTimeoutMs,
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
    answer = await send(address, 'POST', path, JSON.stringify(event), timeoutMs);
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

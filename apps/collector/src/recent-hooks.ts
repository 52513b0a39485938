import { createHash } from 'node:crypto';
import type { Event } from '@kiro-learn/schema';

/** How long a hook's event is remembered to recognise the same hook firing twice. */
export const DOUBLE_FIRE_WINDOW_MS = 5_000;
/** At most this many remembered events: a bound on memory whatever the ingest rate. */
const MAX_REMEMBERED = 10_000;

/**
 * Recognises one hook event delivered twice under different `event_id`s: an agent that
 * runs the same hook from two configurations (Kiro CLI v3 with both agent and workspace
 * hooks, Claude Code hooks in both user and project settings). Same project, surface,
 * session, kind and body within a few seconds is the same hook. Kept in the collector,
 * which sees every hook anyway: a shim-side check would cost every hook a file write.
 */
export interface RecentHooks {
  /** The id of the event this one repeats, or undefined (and remembered) when it is new. */
  repeatOf(event: Event, now?: number): string | undefined;
  /** Forgets an event that was remembered but then not stored (the store failed). */
  forget(event: Event): void;
}

/** Only hooks fire twice; the MCP server's and API clients' events are taken as sent. */
const NOT_HOOKS = new Set(['mcp', 'api']);
// Applied only to events posted with `?hook=1` (the shims do): other clients, tests and
// benchmarks may post equal events on purpose.

export function createRecentHooks(windowMs: number = DOUBLE_FIRE_WINDOW_MS): RecentHooks {
  const seen = new Map<string, { eventId: string; at: number }>();
  const keyOf = (event: Event) =>
    createHash('sha256')
      .update(
        JSON.stringify([
          event.namespace,
          event.source.surface,
          event.session_id,
          event.kind,
          event.body,
        ]),
      )
      .digest('base64');
  return {
    forget(event) {
      if (NOT_HOOKS.has(event.source.surface)) return;
      const key = keyOf(event);
      if (seen.get(key)?.eventId === event.event_id) seen.delete(key);
    },
    repeatOf(event, now = Date.now()) {
      if (NOT_HOOKS.has(event.source.surface)) return undefined;
      for (const [key, entry] of seen) {
        if (now - entry.at <= windowMs && seen.size <= MAX_REMEMBERED) break;
        seen.delete(key);
      }
      const key = keyOf(event);
      const earlier = seen.get(key);
      if (earlier && earlier.eventId !== event.event_id && now - earlier.at <= windowMs) {
        return earlier.eventId;
      }
      seen.delete(key);
      seen.set(key, { eventId: event.event_id, at: now });
      return undefined;
    },
  };
}

import type { Event } from '@kiro-learn/schema';
import type { Context } from 'hono';

/**
 * What the team package needs of the program it runs in (the kiro-learn collector, or
 * another host): a logger, a feed of what happens, and a JSON body reader. Narrow on
 * purpose: the collector's own types fit them as they are.
 */

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/** Where team sharing says what it did (the collector's logger fits). */
export interface TeamLogger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
}

/** A logger that writes nothing. */
export const silentTeamLogger: TeamLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
});

/**
 * Something that happened in the host. `event`: a newly stored event (its project may be
 * shared). Any activity may have written records, so every one wakes the outbox.
 */
export interface HostActivity {
  type: string;
  event?: Event;
}

/** The host's activity feed (the collector's ActivityHub fits). Returns the unsubscribe. */
export interface ActivitySource {
  on(listener: (activity: HostActivity) => void): () => void;
}

/**
 * Reads a request's JSON body, refusing more than `maxBytes` (the collector's reader also
 * bounds nesting and answers 413 early). Throws an error the host answers as a 4xx.
 */
export type ReadJson = (c: Context, maxBytes: number) => Promise<unknown>;

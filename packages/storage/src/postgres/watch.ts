import { createHash } from 'node:crypto';
import type { Event } from '@kiro-learn/schema';
import pg from 'pg';
import type { StoredEventNotice } from '../backend.js';

/** The channel every stored event of `schema` is announced on. */
export const eventsChannel = (schema: string) => `kiro_learn_events:${schema}`;

/**
 * The application_name of a backend's LISTEN connection on `schema`: writers count these
 * (pg_stat_activity) to know whether anyone else watches, and announce nothing otherwise.
 * A schema tag, not the name (application_name keeps 63 bytes), then the instance.
 */
export function listenerName(schema: string, instance: string): string {
  return `${listenerPrefix(schema)}${instance.replace(/^kiro-learn\//, '')}`.slice(0, 63);
}

/** What every listener name on `schema` starts with (see listenerName). */
export function listenerPrefix(schema: string): string {
  const tag = createHash('sha256').update(schema).digest('hex').slice(0, 8);
  return `kiro-learn listen ${tag} `;
}

/**
 * How long a writer trusts a probe that found no watcher (event-batcher.ts), and so how
 * long a new watcher waits after connecting before its feed counts as started.
 */
export const NO_WATCHER_FRESH_MS = 250;

/** One NOTIFY payload: the events one committed batch stored (all or some of them). */
export interface EventsNotice {
  origin: string;
  events: Array<{ event_id: string; namespace: string; event?: Event }>;
}

/**
 * Follows the events channel on a connection of its own (LISTEN cannot share a pooled
 * one), leaving out events stored through connections named `self` (the backend's own
 * application_name), from NO_WATCHER_FRESH_MS after connecting. A lost connection (server restart) is re-opened with back-off; events
 * stored while it was down are not replayed (the feed is live, not a log).
 */
export async function watchEvents(
  url: string,
  schema: string,
  self: string,
  listener: (stored: StoredEventNotice) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = 100;
  const channel = `"${eventsChannel(schema).replaceAll('"', '""')}"`;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      application_name: listenerName(schema, self),
    });
    const lost = () => {
      if (client === c) client = undefined;
      c.end().catch(() => undefined);
      if (!stopped) schedule();
    };
    c.on('error', lost);
    c.on('end', () => {
      if (client === c && !stopped) lost();
    });
    c.on('notification', (message) => {
      if (message.payload === undefined) return;
      let notice: EventsNotice;
      try {
        notice = JSON.parse(message.payload) as EventsNotice;
      } catch {
        return; // not ours
      }
      if (notice.origin === self || !Array.isArray(notice.events)) return;
      for (const { event_id, namespace, event } of notice.events) {
        listener({ eventId: event_id, namespace, ...(event ? { event } : {}) });
      }
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
    delay = 100;
  };

  const schedule = () => {
    clearTimeout(retry);
    retry = setTimeout(() => {
      connect().catch(() => {
        delay = Math.min(delay * 2, 5000);
        if (!stopped) schedule();
      });
    }, delay);
    retry.unref();
  };

  await connect();
  // Writers that probed before this connection existed announce nothing for a while yet.
  await new Promise((resolve) => setTimeout(resolve, NO_WATCHER_FRESH_MS));
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}

/** NOTIFY takes at most 8000 bytes; some room is kept for the JSON around each event. */
const PAYLOAD_BYTES = 7800;
/** An event larger than this goes by id only: the watcher reads it (getEvent). */
const INLINE_EVENT_BYTES = 2000;

/**
 * The NOTIFY payloads announcing one batch: each event with its JSON when that is small,
 * by id otherwise, packed into as few payloads under the limit as fit.
 */
export function noticePayloads(
  origin: string,
  stored: ReadonlyArray<{ eventId: string; namespace: string; json: string; bytes: number }>,
): string[] {
  const head = `{"origin":${JSON.stringify(origin)},"events":[`;
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = head.length + 2;
  for (const item of stored) {
    const id = `{"event_id":${JSON.stringify(item.eventId)},"namespace":${JSON.stringify(item.namespace)}`;
    let part = `${id}}`;
    if (item.bytes <= INLINE_EVENT_BYTES) part = `${id},"event":${item.json}}`;
    const bytes = Buffer.byteLength(part, 'utf8');
    if (bytes + head.length + 2 > PAYLOAD_BYTES) part = `${id}}`;
    const partBytes = Buffer.byteLength(part, 'utf8');
    if (parts.length > 0 && size + partBytes + 1 > PAYLOAD_BYTES) {
      payloads.push(`${head}${parts.join(',')}]}`);
      parts = [];
      size = head.length + 2;
    }
    parts.push(part);
    size += partBytes + 1;
  }
  if (parts.length > 0) payloads.push(`${head}${parts.join(',')}]}`);
  return payloads;
}

import pg from 'pg';
import type { StoredEventNotice } from '../backend.js';

/** The channel every stored event of `schema` is announced on (see migration 0001). */
export const eventsChannel = (schema: string) => `kiro_learn_events:${schema}`;

/**
 * Follows the events channel on a connection of its own (LISTEN cannot share a pooled
 * one), leaving out events stored through connections named `self` (the backend's own
 * application_name). A lost connection (server restart) is re-opened with back-off; events stored
 * while it was down are not replayed (the feed is live, not a log).
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
    const c = new pg.Client({ connectionString: url, application_name: 'kiro-learn listen' });
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
      try {
        const { event_id, namespace, origin } = JSON.parse(message.payload) as {
          event_id: string;
          namespace: string;
          origin?: string;
        };
        if (origin !== self) listener({ eventId: event_id, namespace });
      } catch {
        // not ours: ignore
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
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}

import type { Event } from '@kiro-learn/schema';
import { sql } from 'kysely';
import type { EventHead, EventStore } from '../backend.js';
import { eventJson, eventOfJson, listEventPage } from '../portable.js';
import { eventHeadOfRow } from '../rows.js';
import { hasNul, type PgContext } from './context.js';
import type { PgEventBatcher } from './event-batcher.js';

const MAX_SEQ = 9_223_372_036_854_775_807n;

/** Events: stored once by `event_id`, byte-identical JSON, newest first by arrival. */
export function pgEvents(ctx: PgContext, batcher: PgEventBatcher): Omit<EventStore, 'watchEvents'> {
  const { db } = ctx;

  async function getEventJson(eventId: string): Promise<string | undefined> {
    ctx.ensureOpen();
    if (hasNul(eventId)) return undefined;
    return eventJson(db, eventId);
  }

  return {
    async putEvent(event, options = {}) {
      ctx.ensureOpen();
      // The event and (when asked) its pending entry commit together, in one statement
      // with the other events arriving meanwhile; a duplicate event_id inserts neither.
      return batcher.put(event, options);
    },

    getEvent: async (eventId) => eventOfJson(await getEventJson(eventId)),

    getEventJson,

    async getEvents(eventIds) {
      ctx.ensureOpen();
      const ids = eventIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const { rows } = await sql<{ event_id: string; json: string }>`
        SELECT event_id, json FROM events WHERE event_id = ANY(${ids}::text[])`.execute(db);
      const byId = new Map(rows.map((row) => [row.event_id, JSON.parse(row.json) as Event]));
      return eventIds.flatMap((id) => byId.get(id) ?? []);
    },

    async getEventHeads(eventIds) {
      ctx.ensureOpen();
      const ids = eventIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const { rows } = await sql<{
        event_id: string;
        namespace: string;
        session_id: string;
        kind: EventHead['kind'];
        valid_time: string;
      }>`
        SELECT event_id, namespace, session_id, kind, valid_time
        FROM events WHERE event_id = ANY(${ids}::text[])`.execute(db);
      const byId = new Map(rows.map((row) => [row.event_id, eventHeadOfRow(row)]));
      return eventIds.flatMap((id) => byId.get(id) ?? []);
    },

    async listEvents(query) {
      ctx.ensureOpen();
      if ([query.namespace, query.sessionId].some((key) => key !== undefined && hasNul(key))) {
        return { items: [] };
      }
      return listEventPage(db, query, (cursor) => {
        const seq = BigInt(cursor);
        return String(seq > MAX_SEQ ? MAX_SEQ : seq);
      });
    },
  };
}

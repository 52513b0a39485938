import type { Event } from '@kiro-learn/schema';
import { sql } from 'kysely';
import type { EventHead, EventStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { eventJson, eventOfJson } from '../portable.js';
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
      const byId = new Map(
        rows.map((row): [string, EventHead] => [
          row.event_id,
          {
            eventId: row.event_id,
            namespace: row.namespace,
            sessionId: row.session_id,
            kind: row.kind,
            validTime: row.valid_time,
          },
        ]),
      );
      return eventIds.flatMap((id) => byId.get(id) ?? []);
    },

    async listEvents(query) {
      ctx.ensureOpen();
      if ([query.namespace, query.sessionId].some((key) => key !== undefined && hasNul(key))) {
        return { items: [] };
      }
      let q = db.selectFrom('events').select(['seq', 'json']);
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      if (query.sessionId !== undefined) q = q.where('session_id', '=', query.sessionId);
      if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
      if (query.cursor !== undefined) {
        if (!/^\d+$/.test(query.cursor)) throw new StorageError('invalid_cursor', 'invalid cursor');
        const cursor = BigInt(query.cursor);
        q = q.where('seq', '<', String(cursor > MAX_SEQ ? MAX_SEQ : cursor));
      }
      const rows = await q
        .orderBy('seq', 'desc')
        .limit(query.limit + 1)
        .execute();
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map((row) => JSON.parse(row.json) as Event),
        ...(rows.length > query.limit && last ? { nextCursor: String(last.seq) } : {}),
      };
    },
  };
}

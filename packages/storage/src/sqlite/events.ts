import type { Event } from '@kiro-learn/schema';
import type { EventStore } from '../backend.js';
import { eventJson, eventOfJson, listEventPage } from '../portable.js';
import { eventHeadOfRow } from '../rows.js';
import { byteLength, now, type SqliteContext, selectInChunks } from './context.js';

/** Events: stored once by `event_id`, byte-identical JSON, newest first by arrival. */
export function sqliteEvents(ctx: SqliteContext): Omit<EventStore, 'watchEvents'> {
  const { db, w, writes } = ctx;

  async function getEventJson(eventId: string): Promise<string | undefined> {
    ctx.ensureOpen();
    return eventJson(db, eventId);
  }

  return {
    async putEvent(event, options = {}) {
      ctx.ensureOpen();
      const json = JSON.stringify(event);
      const receivedAt = options.receivedAt ?? now();
      const bytes = byteLength(json);
      // The event and (when asked) its pending entry commit in the same transaction; a
      // duplicate event_id inserts neither.
      return writes.enqueue(() => {
        const inserted = w.insertEvent.get(
          event.event_id,
          event.namespace,
          event.session_id,
          event.kind,
          event.valid_time,
          receivedAt,
          bytes,
          json,
        ) as { seq: number } | undefined;
        if (!inserted) return { stored: false };
        if (options.pending) {
          w.insertPending.run(event.namespace, event.event_id, inserted.seq, bytes, receivedAt);
        }
        return { stored: true };
      });
    },

    getEvent: async (eventId) => eventOfJson(await getEventJson(eventId)),

    getEventJson,

    async getEvents(eventIds) {
      ctx.ensureOpen();
      const rows = await selectInChunks(eventIds, (chunk) =>
        db
          .selectFrom('events')
          .select(['event_id', 'json'])
          .where('event_id', 'in', chunk)
          .execute(),
      );
      const byId = new Map(rows.map((row) => [row.event_id, JSON.parse(row.json) as Event]));
      return eventIds.flatMap((id) => byId.get(id) ?? []);
    },

    async getEventHeads(eventIds) {
      ctx.ensureOpen();
      if (eventIds.length === 0) return [];
      // One prepared statement for any number of ids (retrieval asks on every prompt: a
      // query built and compiled each time cost more than the lookups).
      const rows = ctx.statements
        .prepare(
          `SELECT event_id, namespace, session_id, kind, valid_time FROM events
           WHERE event_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(eventIds)) as Array<Parameters<typeof eventHeadOfRow>[0]>;
      const byId = new Map(rows.map((row) => [row.event_id, eventHeadOfRow(row)]));
      return eventIds.flatMap((id) => byId.get(id) ?? []);
    },

    async listEvents(query) {
      ctx.ensureOpen();
      return listEventPage(db, query, Number, (compiled) => ctx.statements.all(compiled));
    },
  };
}

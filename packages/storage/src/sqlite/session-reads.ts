import type { RecordStore, SessionReadStore } from '../backend.js';
import { eventHeadOfRow } from '../rows.js';
import type { SqliteContext } from './context.js';

/**
 * The session's reads (SessionReadStore) on SQLite: two reads of the local file, with no
 * round trip to save, so the records come from listRecords as before.
 */
export function sqliteSessionReads(
  ctx: SqliteContext,
  records: Pick<RecordStore, 'listRecords'>,
): SessionReadStore {
  return {
    async sessionReads(query) {
      ctx.ensureOpen();
      const events = Math.max(0, Math.trunc(query.events));
      const limit = Math.max(0, Math.trunc(query.records));
      const page =
        limit === 0
          ? { items: [] }
          : await records.listRecords({ namespace: query.namespace, limit, count: false });
      const rows = ctx.statements
        .prepare(
          `SELECT event_id, namespace, session_id, kind, valid_time FROM events
           WHERE session_id = ? ORDER BY seq DESC LIMIT ?`,
        )
        .all(query.sessionId, events + 1) as Array<Parameters<typeof eventHeadOfRow>[0]>;
      return {
        records: page.items,
        events: rows.slice(0, events).map(eventHeadOfRow),
        complete: rows.length <= events,
      };
    },
  };
}

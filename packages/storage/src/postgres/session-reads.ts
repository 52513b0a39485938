import { sql } from 'kysely';
import type { EventHead, SessionReadStore } from '../backend.js';
import { RECORD_COLUMNS, type RecordColumns } from '../rows.js';
import { hasNul, type PgContext } from './context.js';
import { pgRecordFromRow, recordColumns } from './rows.js';

/** An event head as the statement packs it: [event_id, namespace, session_id, kind, valid_time]. */
type PackedHead = [string, string, string, EventHead['kind'], string];

/**
 * The session's reads in one statement: the project's newest records as rows, then one
 * row (its record columns NULL) carrying the session's newest event heads as a JSON list,
 * so a prompt makes one round trip where it made two (the records, then their events'
 * heads) or three (the heads of the ranked records it had not read yet).
 */
export function pgSessionReads(ctx: PgContext): SessionReadStore {
  const { db } = ctx;
  return {
    async sessionReads(query) {
      ctx.ensureOpen();
      if (hasNul(query.namespace) || hasNul(query.sessionId)) {
        return { records: [], events: [], complete: true };
      }
      const records = Math.max(0, Math.trunc(query.records));
      const events = Math.max(0, Math.trunc(query.events));
      const { rows } = await sql<RecordColumns & { heads: PackedHead[] | string | null }>`
        (SELECT NULL AS heads, ${recordColumns('m')}
           FROM memory_records m WHERE m.namespace = ${query.namespace}
           ORDER BY m.created_at DESC, m.record_id DESC LIMIT ${records})
        UNION ALL
        SELECT (SELECT coalesce(json_agg(json_build_array(
                  e.event_id, e.namespace, e.session_id, e.kind, e.valid_time) ORDER BY e.seq DESC), '[]')
                  FROM (SELECT * FROM events WHERE session_id = ${query.sessionId}
                        ORDER BY seq DESC LIMIT ${events + 1}) e),
               ${sql.join(RECORD_COLUMNS.map(() => sql`NULL`))}`.execute(db);
      const packed = rows.find((row) => row.heads !== null)?.heads ?? [];
      const heads = (
        typeof packed === 'string' ? (JSON.parse(packed) as PackedHead[]) : packed
      ).map(
        ([eventId, namespace, sessionId, kind, validTime]): EventHead => ({
          eventId,
          namespace,
          sessionId,
          kind,
          validTime,
        }),
      );
      return {
        records: rows.filter((row) => row.heads === null).map(pgRecordFromRow),
        events: heads.slice(0, events),
        complete: heads.length <= events,
      };
    },
  };
}

import type { MemoryRecord } from '@kiro-learn/schema';
import { sql } from 'kysely';
import { type SharingStore, TEAM_RECORD_COPIES, type TeamRecordCopy } from '../backend.js';
import { type OutboxRow, outboxEntryOfRow } from '../rows.js';
import { hasNul, now, type PgContext, withoutNul } from './context.js';

/**
 * Shared namespaces and the team outbox (migration 0006_team_outbox). The outbox is filled
 * by a trigger on memory_records; this module shares, drains and reports it.
 */
export function pgSharing(ctx: PgContext): SharingStore {
  const { db } = ctx;

  return {
    async share(namespace, projectId) {
      ctx.ensureOpen();
      return db.transaction().execute(async (trx) => {
        const at = now();
        const { rows } = await sql<{ namespace: string }>`
          INSERT INTO team_shares (namespace, project_id, shared_at)
          VALUES (${withoutNul(namespace)}, ${withoutNul(projectId)}, ${at})
          ON CONFLICT (namespace) DO NOTHING RETURNING namespace`.execute(trx);
        if (rows.length === 0) return { added: false, queued: 0 };
        // What the project learned before it was shared goes too, oldest first.
        const queued = await sql`
          INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
          SELECT record_id, namespace, ${withoutNul(projectId)}, 'put', ${at}
          FROM memory_records WHERE namespace = ${withoutNul(namespace)}
          ORDER BY created_at, record_id`.execute(trx);
        return { added: true, queued: Number(queued.numAffectedRows ?? 0) };
      });
    },

    async unshare(namespace) {
      ctx.ensureOpen();
      if (hasNul(namespace)) return { removed: false, dropped: 0 };
      return db.transaction().execute(async (trx) => {
        const removed = await sql`DELETE FROM team_shares WHERE namespace = ${namespace}`.execute(
          trx,
        );
        const dropped = await sql`DELETE FROM team_outbox WHERE namespace = ${namespace}`.execute(
          trx,
        );
        return {
          removed: Number(removed.numAffectedRows ?? 0) > 0,
          dropped: Number(dropped.numAffectedRows ?? 0),
        };
      });
    },

    async listShares() {
      ctx.ensureOpen();
      const { rows } = await sql<{ namespace: string; project_id: string; shared_at: string }>`
        SELECT namespace, project_id, shared_at FROM team_shares ORDER BY namespace`.execute(db);
      return rows.map((row) => ({
        namespace: row.namespace,
        projectId: row.project_id,
        sharedAt: row.shared_at,
      }));
    },

    async nextOutbox(limit) {
      ctx.ensureOpen();
      const { rows } = await sql<OutboxRow>`
        SELECT * FROM team_outbox ORDER BY seq LIMIT ${Math.max(0, Math.floor(limit))}`.execute(db);
      return rows.map(outboxEntryOfRow);
    },

    async completeOutbox(seqs) {
      ctx.ensureOpen();
      if (seqs.length === 0) return 0;
      const result = await sql`
        DELETE FROM team_outbox WHERE seq = ANY(${seqs.map(String)}::bigint[])`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    async failOutbox(seq, error) {
      ctx.ensureOpen();
      await sql`
        UPDATE team_outbox SET attempts = attempts + 1, last_error = ${withoutNul(error.slice(0, 1000))}
        WHERE seq = ${String(seq)}::bigint`.execute(db);
    },

    async outboxSummary() {
      ctx.ensureOpen();
      const { rows } = await sql<{ count: string; oldest: string | null; error: string | null }>`
        SELECT count(*) AS count, min(queued_at) AS oldest,
          (SELECT last_error FROM team_outbox WHERE last_error IS NOT NULL ORDER BY seq LIMIT 1) AS error
        FROM team_outbox`.execute(db);
      const row = rows[0]!;
      return {
        count: Number(row.count),
        ...(row.oldest === null ? {} : { oldestAt: row.oldest }),
        ...(row.error === null ? {} : { lastError: row.error }),
      };
    },

    async rememberTeamRecords(copies) {
      ctx.ensureOpen();
      if (copies.length === 0) return;
      const at = now();
      await db.transaction().execute(async (trx) => {
        for (const copy of copies) {
          await sql`
            INSERT INTO team_record_copies (team_record_id, project_id, author, json, seen_at)
            VALUES (${withoutNul(copy.record.record_id)}, ${withoutNul(copy.projectId)},
              ${withoutNul(copy.author)}, ${withoutNul(JSON.stringify(copy.record))}, ${at})
            ON CONFLICT (team_record_id) DO UPDATE SET project_id = EXCLUDED.project_id,
              author = EXCLUDED.author, json = EXCLUDED.json, seen_at = EXCLUDED.seen_at`.execute(
            trx,
          );
        }
        await sql`
          DELETE FROM team_record_copies WHERE team_record_id NOT IN
            (SELECT team_record_id FROM team_record_copies ORDER BY seen_at DESC, team_record_id LIMIT ${TEAM_RECORD_COPIES})`.execute(
          trx,
        );
      });
    },

    async teamRecords(recordIds) {
      ctx.ensureOpen();
      const ids = recordIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const { rows } = await sql<{
        team_record_id: string;
        project_id: string;
        author: string;
        json: string;
        seen_at: string;
      }>`SELECT * FROM team_record_copies WHERE team_record_id = ANY(${ids}::text[])`.execute(db);
      const byId = new Map(
        rows.map((row): [string, TeamRecordCopy] => [
          row.team_record_id,
          {
            record: JSON.parse(row.json) as MemoryRecord,
            author: row.author,
            projectId: row.project_id,
            seenAt: row.seen_at,
          },
        ]),
      );
      return recordIds.flatMap((id) => byId.get(id) ?? []);
    },
  };
}

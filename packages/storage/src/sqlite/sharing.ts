import type { MemoryRecord } from '@kiro-learn/schema';
import {
  type SharingStore,
  TEAM_RECORD_COPIES,
  type TeamRecordCopy,
  type TeamShare,
} from '../backend.js';
import { type OutboxRow, outboxEntryOfRow } from '../rows.js';
import type { SqliteContext } from './context.js';

const now = () => new Date().toISOString();

/**
 * Shared namespaces and the team outbox (migration 0008_team_outbox). The outbox is filled
 * by triggers on memory_records; this module shares, drains and reports it.
 */
export function sqliteSharing(ctx: SqliteContext): SharingStore {
  const { statements, writes } = ctx;
  const prepare = (source: string) => statements.prepare(source);

  return {
    async share(namespace, projectId) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        const at = now();
        const added =
          prepare(
            `INSERT INTO team_shares (namespace, project_id, shared_at) VALUES (?, ?, ?)
             ON CONFLICT (namespace) DO NOTHING`,
          ).run(namespace, projectId, at).changes > 0;
        if (!added) return { added, queued: 0 };
        // What the project learned before it was shared goes too, oldest first.
        const queued = prepare(
          `INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
           SELECT record_id, namespace, ?, 'put', ? FROM memory_records
           WHERE namespace = ? ORDER BY created_at, record_id`,
        ).run(projectId, at, namespace).changes;
        return { added, queued };
      });
    },

    async unshare(namespace) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        const removed =
          prepare('DELETE FROM team_shares WHERE namespace = ?').run(namespace).changes > 0;
        const dropped = prepare('DELETE FROM team_outbox WHERE namespace = ?').run(
          namespace,
        ).changes;
        return { removed, dropped };
      });
    },

    async listShares() {
      ctx.ensureOpen();
      const rows = prepare(
        'SELECT namespace, project_id, shared_at FROM team_shares ORDER BY namespace',
      ).all() as Array<{ namespace: string; project_id: string; shared_at: string }>;
      return rows.map(
        (row): TeamShare => ({
          namespace: row.namespace,
          projectId: row.project_id,
          sharedAt: row.shared_at,
        }),
      );
    },

    async nextOutbox(limit) {
      ctx.ensureOpen();
      const rows = prepare('SELECT * FROM team_outbox ORDER BY seq LIMIT ?').all(
        Math.max(0, Math.floor(limit)),
      ) as OutboxRow[];
      return rows.map(outboxEntryOfRow);
    },

    async completeOutbox(seqs) {
      ctx.ensureOpen();
      if (seqs.length === 0) return 0;
      return writes.enqueue(() => {
        const remove = prepare('DELETE FROM team_outbox WHERE seq = ?');
        let n = 0;
        for (const seq of seqs) n += remove.run(seq).changes;
        return n;
      });
    },

    async failOutbox(seq, error) {
      ctx.ensureOpen();
      await writes.enqueue(() =>
        prepare('UPDATE team_outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?').run(
          error.slice(0, 1000),
          seq,
        ),
      );
    },

    async outboxSummary() {
      ctx.ensureOpen();
      const row = prepare(
        `SELECT count(*) AS count, min(queued_at) AS oldest,
           (SELECT last_error FROM team_outbox WHERE last_error IS NOT NULL ORDER BY seq LIMIT 1) AS error
         FROM team_outbox`,
      ).get() as { count: number; oldest: string | null; error: string | null };
      return {
        count: row.count,
        ...(row.oldest === null ? {} : { oldestAt: row.oldest }),
        ...(row.error === null ? {} : { lastError: row.error }),
      };
    },

    async rememberTeamRecords(copies) {
      ctx.ensureOpen();
      if (copies.length === 0) return;
      await writes.enqueue(() => {
        const at = now();
        const put = prepare(
          `INSERT INTO team_record_copies (team_record_id, project_id, author, json, seen_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (team_record_id) DO UPDATE SET project_id = excluded.project_id,
             author = excluded.author, json = excluded.json, seen_at = excluded.seen_at`,
        );
        for (const copy of copies) {
          put.run(
            copy.record.record_id,
            copy.projectId,
            copy.author,
            JSON.stringify(copy.record),
            at,
          );
        }
        prepare(
          `DELETE FROM team_record_copies WHERE team_record_id NOT IN
             (SELECT team_record_id FROM team_record_copies ORDER BY seen_at DESC, team_record_id LIMIT ?)`,
        ).run(TEAM_RECORD_COPIES);
      });
    },

    async teamRecords(recordIds) {
      ctx.ensureOpen();
      const get = prepare('SELECT * FROM team_record_copies WHERE team_record_id = ?');
      return recordIds.flatMap((id): TeamRecordCopy[] => {
        const row = get.get(id) as
          | { project_id: string; author: string; json: string; seen_at: string }
          | undefined;
        if (!row) return [];
        return [
          {
            record: JSON.parse(row.json) as MemoryRecord,
            author: row.author,
            projectId: row.project_id,
            seenAt: row.seen_at,
          },
        ];
      });
    },
  };
}

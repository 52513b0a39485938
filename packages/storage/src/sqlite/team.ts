import type { TeamRecordInfo, TeamStore } from '../backend.js';
import { checkRevision } from '../team-rules.js';
import { now, type SqliteContext, selectInChunks } from './context.js';
import { rowFromRecord } from './rows.js';
import type { RecordRow } from './tables.js';

interface TeamRow {
  record_id: string;
  team: string;
  author: string;
  revision: number;
  updated_at: string;
}

const toInfo = (row: TeamRow): TeamRecordInfo => ({
  recordId: row.record_id,
  team: row.team,
  author: row.author,
  revision: row.revision,
  updatedAt: row.updated_at,
});

/**
 * Records members share through a team server: the record in memory_records, its team,
 * author and revision in team_records. The write queue runs one write at a time, so each
 * push's checks and writes are one step.
 */
export function sqliteTeam(ctx: SqliteContext): TeamStore {
  const { db, sqlite, w, writes } = ctx;
  const selectTeam = sqlite.prepare('SELECT * FROM team_records WHERE record_id = ?');
  const upsertTeam = sqlite.prepare(
    `INSERT INTO team_records (record_id, team, author, revision, updated_at)
     VALUES (@record_id, @team, @author, @revision, @updated_at)
     ON CONFLICT (record_id) DO UPDATE SET revision = excluded.revision, updated_at = excluded.updated_at`,
  );
  const selectTombstone = sqlite.prepare(
    'SELECT deleted_at FROM team_tombstones WHERE deleted_record_id = ?',
  );
  const insertTombstone = sqlite.prepare(
    `INSERT INTO team_tombstones (deleted_record_id, team, deleted_by, deleted_at)
     VALUES (?, ?, ?, ?) ON CONFLICT (deleted_record_id) DO NOTHING`,
  );
  return {
    async putTeamRecord(write) {
      ctx.ensureOpen();
      checkRevision(write.revision);
      const row = rowFromRecord(write.record);
      return writes.enqueue(() => {
        const tombstone = selectTombstone.get(row.record_id) as { deleted_at: string } | undefined;
        if (tombstone) return { status: 'gone', deletedAt: tombstone.deleted_at } as const;
        const record = w.selectRecord.get(row.record_id) as RecordRow | undefined;
        if (record) {
          const team = selectTeam.get(row.record_id) as TeamRow | undefined;
          if (!team || team.team !== write.team) return { status: 'conflict' } as const;
          if (record.namespace !== row.namespace) {
            return { status: 'conflict', namespace: record.namespace } as const;
          }
          if (team.author !== write.member && !write.admin) {
            return { status: 'forbidden', author: team.author } as const;
          }
          if (team.revision >= write.revision) {
            return { status: 'stale', revision: team.revision } as const;
          }
          // An update in place, not delete and insert: deleting would take the team row
          // with it (ON DELETE CASCADE); the update triggers refresh search and vectors.
          w.updateRecord.run({ ...row, target: row.record_id });
        } else {
          w.insertRecord.run(row);
        }
        upsertTeam.run({
          record_id: row.record_id,
          team: write.team,
          author: write.member,
          revision: write.revision,
          updated_at: now(),
        });
        return { status: 'stored' } as const;
      });
    },

    async deleteTeamRecord(request) {
      ctx.ensureOpen();
      return writes.enqueue(() => {
        const team = selectTeam.get(request.recordId) as TeamRow | undefined;
        if (!team || team.team !== request.team) return 'missing' as const;
        if (team.author !== request.member && !request.admin) return 'forbidden' as const;
        // Its team_records row goes with it (ON DELETE CASCADE), vectors too; the tombstone
        // stays, so a late push of an edit does not bring it back.
        w.deleteRecord.run(request.recordId);
        insertTombstone.run(request.recordId, team.team, request.member, now());
        return 'deleted' as const;
      });
    },

    async teamRecordInfo(recordIds) {
      ctx.ensureOpen();
      const rows = await selectInChunks(recordIds, (chunk) =>
        db.selectFrom('team_records').selectAll().where('record_id', 'in', chunk).execute(),
      );
      const byId = new Map(rows.map((row) => [row.record_id, toInfo(row)]));
      return recordIds.flatMap((id) => byId.get(id) ?? []);
    },
  };
}

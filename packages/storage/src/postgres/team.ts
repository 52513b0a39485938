import { type Kysely, sql } from 'kysely';
import type { TeamRecordInfo, TeamStore } from '../backend.js';
import { checkRevision } from '../team-rules.js';
import { hasNul, now, type PgContext } from './context.js';
import { upsertRecordStatement } from './records.js';
import type { PgTables } from './tables.js';

/**
 * Serializes the pushes and deletes of one record id until the transaction ends: a row
 * lock would not cover the first push of an id (there is no row yet to lock).
 */
async function lockRecordId(trx: Kysely<PgTables>, recordId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`kiro-learn team record ${recordId}`}))`.execute(
    trx,
  );
}

/**
 * Records members share through a team server: the record in memory_records, its team,
 * author and revision in team_records. Each push or delete is one transaction holding a
 * lock on the record id, so two pushes of one record (or a push and a delete) apply one
 * after the other and the revision rule holds whatever the order they arrive in.
 */
export function pgTeam(ctx: PgContext): TeamStore {
  const { db } = ctx;
  return {
    async putTeamRecord(write) {
      ctx.ensureOpen();
      checkRevision(write.revision);
      const { record } = write;
      if (hasNul(record.record_id)) return { status: 'conflict' };
      return db.transaction().execute(async (trx) => {
        await lockRecordId(trx, record.record_id);
        const tombstone = await trx
          .selectFrom('team_tombstones')
          .select('deleted_at')
          .where('deleted_record_id', '=', record.record_id)
          .executeTakeFirst();
        if (tombstone) return { status: 'gone', deletedAt: tombstone.deleted_at } as const;
        const existing = await trx
          .selectFrom('memory_records as r')
          .leftJoin('team_records as t', 't.record_id', 'r.record_id')
          .select(['r.namespace', 't.team', 't.author', 't.revision'])
          .where('r.record_id', '=', record.record_id)
          .executeTakeFirst();
        if (existing) {
          if (existing.team !== write.team || existing.author === null) {
            return { status: 'conflict' } as const;
          }
          if (existing.namespace !== record.namespace) {
            return { status: 'conflict', namespace: existing.namespace } as const;
          }
          if (existing.author !== write.member && !write.admin) {
            return { status: 'forbidden', author: existing.author } as const;
          }
          const stored = Number(existing.revision);
          if (stored >= write.revision) return { status: 'stale', revision: stored } as const;
        }
        // The record and its team row in one statement: one round trip less per push.
        const at = now();
        await sql`
          WITH stored AS (${upsertRecordStatement(record)} RETURNING record_id)
          INSERT INTO team_records (record_id, team, author, revision, updated_at)
          SELECT record_id, ${write.team}, ${write.member}, ${write.revision}::bigint, ${at} FROM stored
          ON CONFLICT (record_id) DO UPDATE
            SET revision = EXCLUDED.revision, updated_at = EXCLUDED.updated_at`.execute(trx);
        return { status: 'stored' } as const;
      });
    },

    async deleteTeamRecord(request) {
      ctx.ensureOpen();
      if (hasNul(request.recordId)) return 'missing';
      return db.transaction().execute(async (trx) => {
        await lockRecordId(trx, request.recordId);
        const row = await trx
          .selectFrom('team_records')
          .select(['team', 'author'])
          .where('record_id', '=', request.recordId)
          .executeTakeFirst();
        if (!row || row.team !== request.team) return 'missing';
        if (row.author !== request.member && !request.admin) return 'forbidden';
        // Its team_records row goes with it (ON DELETE CASCADE), vectors too; the tombstone
        // stays, so a late push of an edit does not bring it back.
        await trx.deleteFrom('memory_records').where('record_id', '=', request.recordId).execute();
        await trx
          .insertInto('team_tombstones')
          .values({
            deleted_record_id: request.recordId,
            team: row.team,
            deleted_by: request.member,
            deleted_at: now(),
          })
          .onConflict((oc) => oc.column('deleted_record_id').doNothing())
          .execute();
        return 'deleted';
      });
    },

    async teamRecordInfo(recordIds) {
      ctx.ensureOpen();
      const ids = recordIds.filter((id) => !hasNul(id));
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('team_records')
        .selectAll()
        .where('record_id', 'in', ids)
        .execute();
      const byId = new Map<string, TeamRecordInfo>(
        rows.map((row) => [
          row.record_id,
          {
            recordId: row.record_id,
            team: row.team,
            author: row.author,
            revision: Number(row.revision),
            updatedAt: row.updated_at,
          },
        ]),
      );
      return recordIds.flatMap((id) => byId.get(id) ?? []);
    },
  };
}

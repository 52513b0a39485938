import type { MemberStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { findMemberRow, listMemberRows } from '../portable.js';
import { memberOf } from '../rows.js';
import { hasNul, now, type PgContext } from './context.js';

/** Members of a team server: names, teams, roles and SHA-256 hashes of their tokens. */
export function pgMembers(ctx: PgContext): MemberStore {
  const { db } = ctx;
  return {
    async addMember(member) {
      ctx.ensureOpen();
      const added = memberOf(member, now());
      const inserted = await db
        .insertInto('members')
        .values({
          name: member.name,
          team: added.team,
          role: member.role,
          token_hash: member.tokenHash,
          created_at: added.createdAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        throw new StorageError('conflict', `a member named ${member.name} exists`);
      }
      return added;
    },

    async listMembers() {
      ctx.ensureOpen();
      return listMemberRows(db);
    },

    async removeMember(name) {
      ctx.ensureOpen();
      if (hasNul(name)) return false;
      const result = await db.deleteFrom('members').where('name', '=', name).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async findMember(tokenHash) {
      ctx.ensureOpen();
      return hasNul(tokenHash) ? undefined : findMemberRow(db, tokenHash);
    },
  };
}

import type { MemberStore } from '../backend.js';
import { StorageError } from '../errors.js';
import { findMemberRow, listMemberRows } from '../portable.js';
import { memberOf } from '../rows.js';
import { now, type SqliteContext } from './context.js';

/** Members of a team memory server: named bearer tokens, stored hashed, each in one team. */
export function sqliteMembers(ctx: SqliteContext): MemberStore {
  const { db, statements, writes } = ctx;
  return {
    async addMember(member) {
      ctx.ensureOpen();
      const added = memberOf(member, now());
      return writes.enqueue(() => {
        const taken = statements
          .prepare('SELECT 1 FROM members WHERE name = ? OR token_hash = ?')
          .get(member.name, member.tokenHash);
        if (taken) throw new StorageError('conflict', `a member named ${member.name} exists`);
        statements
          .prepare(
            'INSERT INTO members (name, team, role, token_hash, created_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(added.name, added.team, added.role, member.tokenHash, added.createdAt);
        return added;
      });
    },

    async listMembers() {
      ctx.ensureOpen();
      return listMemberRows(db);
    },

    async removeMember(name) {
      ctx.ensureOpen();
      return writes.enqueue(
        () => statements.prepare('DELETE FROM members WHERE name = ?').run(name).changes > 0,
      );
    },

    async findMember(tokenHash) {
      ctx.ensureOpen();
      return findMemberRow(db, tokenHash);
    },
  };
}

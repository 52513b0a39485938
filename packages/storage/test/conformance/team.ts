import { describe, expect, it } from 'vitest';
import type { StorageBackend, TeamRecordWrite } from '../../src/index.js';
import { record } from '../helpers.js';
import type { BackendFactory } from './types.js';

// A team's namespace as the collector builds it (`team:` cannot start a member's name).
const TEAM_NS = '/actor/team:core/project/payments-api/';

const push = (
  storage: StorageBackend,
  write: Partial<TeamRecordWrite> & Pick<TeamRecordWrite, 'record' | 'revision'>,
) => storage.putTeamRecord({ team: 'core', member: 'alice', admin: false, ...write });

export function teamConformance({ open, reopen }: BackendFactory): void {
  describe('team records', () => {
    it('stores a push as an ordinary record with its author; revisions only move forward', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS, title: 'Stripe webhooks need the raw body' });
      expect(await push(storage, { record: r, revision: 2 })).toEqual({ status: 'stored' });
      expect(await storage.getRecord(r.record_id)).toEqual(r);
      const hits = await storage.searchRecords({ namespace: TEAM_NS, query: 'stripe', limit: 5 });
      expect(hits.map((hit) => hit.record.record_id)).toEqual([r.record_id]);
      expect(await push(storage, { record: { ...r, title: 'Old' }, revision: 2 })).toEqual({
        status: 'stale',
        revision: 2,
      });
      expect(await push(storage, { record: { ...r, title: 'Older' }, revision: 1 })).toEqual({
        status: 'stale',
        revision: 2,
      });
      expect((await storage.getRecord(r.record_id))?.title).toBe(r.title);
      const edited = { ...r, title: 'Stripe webhooks: verify against the raw body' };
      expect(await push(storage, { record: edited, revision: 3 })).toEqual({ status: 'stored' });
      expect(await storage.getRecord(r.record_id)).toEqual(edited);
      expect(
        await storage.searchRecords({ namespace: TEAM_NS, query: 'verify', limit: 5 }),
      ).toHaveLength(1);
      expect(await storage.teamRecordInfo([r.record_id, 'mr_missing'])).toEqual([
        {
          recordId: r.record_id,
          team: 'core',
          author: 'alice',
          revision: 3,
          updatedAt: expect.any(String),
        },
      ]);
      expect((await storage.stats()).memories.total).toBe(1);
      const again = await reopen(storage);
      expect((await again.teamRecordInfo([r.record_id]))[0]?.revision).toBe(3);
    });

    it('keeps a record in the project it was first shared to: a push naming another is a conflict', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS, title: 'Billing retries' });
      await push(storage, { record: r, revision: 1 });
      const elsewhere = { ...r, namespace: '/actor/team:core/project/other-repo/' };
      for (const write of [
        { record: elsewhere, revision: 2 },
        { record: elsewhere, revision: 3, member: 'lead', admin: true },
      ]) {
        expect(await push(storage, write)).toEqual({ status: 'conflict', namespace: TEAM_NS });
      }
      expect(await storage.getRecord(r.record_id)).toEqual(r);
      expect(await storage.listRecords({ namespace: elsewhere.namespace, limit: 5 })).toEqual({
        items: [],
        total: 0,
      });
      // An edit in its own project still goes through at the next revision.
      expect(await push(storage, { record: { ...r, title: 'Edited' }, revision: 2 })).toEqual({
        status: 'stored',
      });
    });

    it('refuses a revision outside 1..LIMITS.teamRevision, so none can make later edits stale', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS });
      await push(storage, { record: r, revision: 1 });
      for (const revision of [Number.MAX_SAFE_INTEGER, 2 ** 31, 0, -1, 1.5]) {
        await expect(
          push(storage, { record: { ...r, title: 'Jam' }, revision }),
        ).rejects.toMatchObject({
          code: 'invalid_option',
        });
      }
      expect(await push(storage, { record: { ...r, title: 'Next' }, revision: 2 })).toEqual({
        status: 'stored',
      });
      expect((await storage.teamRecordInfo([r.record_id]))[0]?.revision).toBe(2);
    });

    it('another member may not overwrite or delete; an admin of the team may, the author stays', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS });
      await push(storage, { record: r, revision: 1 });
      expect(await push(storage, { record: r, revision: 5, member: 'bob' })).toEqual({
        status: 'forbidden',
        author: 'alice',
      });
      expect(
        await storage.deleteTeamRecord({
          recordId: r.record_id,
          team: 'core',
          member: 'bob',
          admin: false,
        }),
      ).toBe('forbidden');
      expect(
        await push(storage, {
          record: { ...r, title: 'Fixed by the lead' },
          revision: 2,
          member: 'lead',
          admin: true,
        }),
      ).toEqual({ status: 'stored' });
      expect((await storage.teamRecordInfo([r.record_id]))[0]).toMatchObject({
        author: 'alice',
        revision: 2,
      });
      expect(
        await storage.deleteTeamRecord({
          recordId: r.record_id,
          team: 'core',
          member: 'lead',
          admin: true,
        }),
      ).toBe('deleted');
      expect(await storage.getRecord(r.record_id)).toBeUndefined();
      expect(await storage.teamRecordInfo([r.record_id])).toEqual([]);
      expect(
        await storage.deleteTeamRecord({
          recordId: r.record_id,
          team: 'core',
          member: 'alice',
          admin: false,
        }),
      ).toBe('missing');
    });

    it('a deleted record stays deleted: a later push of it, at any revision, is gone', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS, title: 'Ledger exports are CSV' });
      await push(storage, { record: r, revision: 1 });
      const byAuthor = { recordId: r.record_id, team: 'core', member: 'alice', admin: false };
      expect(await storage.deleteTeamRecord(byAuthor)).toBe('deleted');
      // The author's machine edited it before the delete reached it: a higher revision.
      const late = await push(storage, { record: { ...r, title: 'Ledger exports' }, revision: 7 });
      expect(late).toEqual({ status: 'gone', deletedAt: expect.any(String) });
      expect(await storage.getRecord(r.record_id)).toBeUndefined();
      expect(await storage.teamRecordInfo([r.record_id])).toEqual([]);
      expect(
        await storage.searchRecords({ namespace: TEAM_NS, query: 'ledger', limit: 5 }),
      ).toEqual([]);
      // Deleted by an admin: the same, and the tombstone outlives a restart.
      const s = record({ namespace: TEAM_NS });
      await push(storage, { record: s, revision: 1 });
      expect(
        await storage.deleteTeamRecord({
          ...byAuthor,
          recordId: s.record_id,
          member: 'lead',
          admin: true,
        }),
      ).toBe('deleted');
      const again = await reopen(storage);
      expect(await push(again, { record: s, revision: 2 })).toMatchObject({ status: 'gone' });
      expect(await again.deleteTeamRecord({ ...byAuthor, recordId: s.record_id })).toBe('missing');
    });

    it("another team's record, or a record not shared, is out of reach", async () => {
      const storage = await open();
      const theirs = record({ namespace: '/actor/team:other/project/payments-api/' });
      await storage.putTeamRecord({
        record: theirs,
        revision: 1,
        team: 'other',
        member: 'eve',
        admin: false,
      });
      const local = record();
      await storage.putRecord(local);
      for (const id of [theirs.record_id, local.record_id]) {
        const taken = await storage.getRecord(id);
        expect(
          await push(storage, {
            record: { ...taken!, namespace: TEAM_NS },
            revision: 9,
            admin: true,
          }),
        ).toEqual({ status: 'conflict' });
        expect(
          await storage.deleteTeamRecord({
            recordId: id,
            team: 'core',
            member: 'alice',
            admin: true,
          }),
        ).toBe('missing');
        expect(await storage.getRecord(id)).toEqual(taken);
      }
    });

    it('forgetting a team record forgets its author and revision; concurrent pushes keep the newest', async () => {
      const storage = await open();
      const r = record({ namespace: TEAM_NS });
      await push(storage, { record: r, revision: 1 });
      expect(await storage.forget({ namespace: TEAM_NS })).toMatchObject({ records: 1 });
      expect(await storage.teamRecordInfo([r.record_id])).toEqual([]);
      // Forgotten, the id is free again: a push stores it anew.
      expect(await push(storage, { record: r, revision: 1 })).toEqual({ status: 'stored' });

      const raced = record({ namespace: TEAM_NS });
      const outcomes = await Promise.all(
        [3, 1, 2].map((revision) =>
          push(storage, { record: { ...raced, title: `revision ${revision}` }, revision }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'stored').length).toBeGreaterThanOrEqual(1);
      expect((await storage.getRecord(raced.record_id))?.title).toBe('revision 3');
      expect((await storage.teamRecordInfo([raced.record_id]))[0]?.revision).toBe(3);
    });
  });
}

import { parseNamespace } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import type { StorageBackend } from '../../src/index.js';
import { event, NS, record } from '../helpers.js';
import { type BackendFactory, holding } from './types.js';

const OTHER = '/actor/alice/project/side-project/';

/** The outbox as `op record_id` lines, in push order. */
async function outbox(storage: StorageBackend): Promise<string[]> {
  const entries = await storage.sharing.nextOutbox(1000);
  return entries.map((e) => `${e.op} ${e.recordId}`);
}

export function sharingConformance({ open, reopen }: BackendFactory): void {
  describe('sharing (team outbox)', () => {
    it('queues nothing for a namespace that is not shared', async () => {
      const storage = await open();
      await storage.putRecord(record());
      await storage.insertRecord(record());
      expect(await outbox(storage)).toEqual([]);
      expect(await storage.sharing.outboxSummary()).toEqual({ count: 0 });
    });

    it('sharing queues what the project holds, oldest first, once', async () => {
      const old = record({ created_at: '2026-01-01T00:00:00.000Z' });
      const newer = record({ created_at: '2026-02-01T00:00:00.000Z' });
      const storage = await holding({ open }, newer, old);
      await storage.putRecord(record({ namespace: OTHER }));
      expect(await storage.sharing.share(NS, 'payments-api')).toEqual({ added: true, queued: 2 });
      expect(await storage.sharing.share(NS, 'payments-api')).toEqual({ added: false, queued: 0 });
      expect(await outbox(storage)).toEqual([`put ${old.record_id}`, `put ${newer.record_id}`]);
      const [entry] = await storage.sharing.nextOutbox(1);
      expect(entry).toMatchObject({ namespace: NS, projectId: 'payments-api', attempts: 0 });
      expect(await storage.sharing.listShares()).toEqual([
        { namespace: NS, projectId: 'payments-api', sharedAt: expect.any(String) },
      ]);
    });

    it('every write of a shared record queues in order with a growing seq: save, extract, edit, delete, forget', async () => {
      const storage = await open();
      await storage.sharing.share(NS, 'payments-api');
      const saved = record();
      await storage.insertRecord(saved);
      const pending = event();
      await storage.putEvent(pending, { pending: true });
      const extracted = record({ source_event_ids: [pending.event_id] });
      await storage.commitExtraction({
        namespace: NS,
        records: [extracted],
        eventIds: [pending.event_id],
      });
      await storage.updateRecord(saved.record_id, { title: 'Edited' });
      await storage.deleteRecord(extracted.record_id);
      await storage.forget({ record: saved.record_id });
      await storage.putRecord(record({ namespace: OTHER }));
      expect(await outbox(storage)).toEqual([
        `put ${saved.record_id}`,
        `put ${extracted.record_id}`,
        `put ${saved.record_id}`,
        `delete ${extracted.record_id}`,
        `delete ${saved.record_id}`,
      ]);
      const seqs = (await storage.sharing.nextOutbox(10)).map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
    });

    it('a write that fails queues nothing (same transaction)', async () => {
      const storage = await open();
      await storage.sharing.share(NS, 'payments-api');
      const pending = event();
      await storage.putEvent(pending, { pending: true });
      await storage.removePending(NS, [pending.event_id]);
      await expect(
        storage.commitExtraction({
          namespace: NS,
          records: [record()],
          eventIds: [pending.event_id],
        }),
      ).rejects.toMatchObject({ code: 'stale_batch' });
      expect(await outbox(storage)).toEqual([]);
    });

    it('drains: complete removes, fail counts and keeps; the summary says how many wait and why', async () => {
      const storage = await open();
      await storage.sharing.share(NS, 'payments-api');
      const a = record();
      const b = record();
      await storage.putRecord(a);
      await storage.putRecord(b);
      const [first, second] = await storage.sharing.nextOutbox(10);
      await storage.sharing.failOutbox(first!.seq, 'team server unreachable');
      expect(await storage.sharing.outboxSummary()).toEqual({
        count: 2,
        oldestAt: expect.any(String),
        lastError: 'team server unreachable',
      });
      expect((await storage.sharing.nextOutbox(1))[0]).toMatchObject({
        seq: first!.seq,
        attempts: 1,
        lastError: 'team server unreachable',
      });
      expect(await storage.sharing.completeOutbox([first!.seq, second!.seq])).toBe(2);
      expect(await storage.sharing.outboxSummary()).toEqual({ count: 0 });
    });

    it('the outbox survives a restart', async () => {
      const storage = await open();
      await storage.sharing.share(NS, 'payments-api');
      const a = record();
      await storage.putRecord(a);
      await storage.close();
      const again = await reopen(storage);
      expect(await outbox(again)).toEqual([`put ${a.record_id}`]);
      await again.putRecord({ ...a, title: 'Again' });
      const seqs = (await again.sharing.nextOutbox(10)).map((e) => e.seq);
      expect(seqs[1]).toBeGreaterThan(seqs[0]!);
    });

    it('unsharing drops what waits and queues nothing more', async () => {
      const storage = await open();
      await storage.sharing.share(NS, 'payments-api');
      await storage.putRecord(record());
      expect(await storage.sharing.unshare(NS)).toEqual({ removed: true, dropped: 1 });
      await storage.putRecord(record());
      expect(await outbox(storage)).toEqual([]);
      expect(await storage.sharing.listShares()).toEqual([]);
      expect(await storage.sharing.unshare(NS)).toEqual({ removed: false, dropped: 0 });
    });

    it('keeps copies of team records by id, replacing older copies', async () => {
      const storage = await open();
      const theirs = record({ namespace: '/actor/bob/project/payments-api/' });
      await storage.sharing.rememberTeamRecords([
        { record: theirs, author: 'bob', projectId: 'payments-api' },
      ]);
      await storage.sharing.rememberTeamRecords([
        { record: { ...theirs, title: 'Newer' }, author: 'bob', projectId: 'payments-api' },
      ]);
      const copies = await storage.sharing.teamRecords([theirs.record_id, 'mr_missing']);
      expect(copies).toEqual([
        {
          record: { ...theirs, title: 'Newer' },
          author: 'bob',
          projectId: 'payments-api',
          seenAt: expect.any(String),
        },
      ]);
      // A team copy is not a local record: it is neither searched nor pushed.
      expect(await storage.getRecord(theirs.record_id)).toBeUndefined();
    });

    it("forget takes the kept copies of teammates' records: by record, project, time and all", async () => {
      const storage = await open();
      const project = parseNamespace(NS)!.projectId;
      const copy = (projectId: string) => ({
        record: record({ namespace: `/actor/bob/project/${projectId}/` }),
        author: 'bob',
        projectId,
      });
      const [one, two, three, elsewhere] = [
        copy(project),
        copy(project),
        copy(project),
        copy('side-project'),
      ];
      await storage.sharing.rememberTeamRecords([one!, two!, three!, elsewhere!]);
      const kept = async () =>
        (
          await storage.sharing.teamRecords(
            [one, two, three, elsewhere].map((c) => c!.record.record_id),
          )
        ).map((c) => c.record.record_id);

      expect(await storage.countForget({ record: one!.record.record_id })).toMatchObject({
        records: 1,
      });
      await storage.forget({ record: one!.record.record_id });
      expect(await kept()).not.toContain(one!.record.record_id);
      // Events and sessions are this machine's own: no copy is made from them.
      await storage.forget({ session: 'sess-1' });
      expect(await kept()).toHaveLength(3);
      // A time before they were seen here takes none; one after takes those of the project.
      await storage.forget({ before: '2001-01-01', namespace: NS });
      expect(await kept()).toHaveLength(3);
      await storage.forget({ before: '2999-01-01', namespace: NS });
      expect(await kept()).toEqual([elsewhere!.record.record_id]);
      await storage.sharing.rememberTeamRecords([two!]);
      expect(await storage.forget({ namespace: NS })).toMatchObject({ records: 1 });
      expect(await kept()).toEqual([elsewhere!.record.record_id]);
      await storage.forget({ all: true });
      expect(await kept()).toEqual([]);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/index.js';
import { event, NS, record } from '../helpers.js';
import { type BackendFactory, holding } from './types.js';

const OTHER = '/actor/alice/project/other/';
const titles = (records: ReadonlyArray<{ title: string }>) => records.map((r) => r.title);

/** Questions a record answers, and a newer record retiring an older one. */
export function supersessionConformance({ open, reopen }: BackendFactory): void {
  describe('questions a record answers', () => {
    it('round-trip, and a record without them reads back without the field', async () => {
      const asked = record({ questions: ['Which queue do we use?', 'Where do jobs go?'] });
      const plain = record();
      const storage = await holding({ open }, asked, plain);
      expect(await storage.getRecord(asked.record_id)).toEqual(asked);
      const back = await storage.getRecord(plain.record_id);
      expect(back).toEqual(plain);
      expect(back).not.toHaveProperty('questions');
    });

    it('are searched as their own field, weighted by `questions`', async () => {
      const storage = await holding(
        { open },
        record({
          title: 'Jobs go through SQS',
          summary: 'Moved the job queue off Redis.',
          questions: ['Which message broker carries background work?'],
        }),
        record({ title: 'Broker outage notes', summary: 'Unrelated.' }),
      );
      const hits = await storage.searchRecords({ namespace: NS, query: 'broker', limit: 5 });
      expect(titles(hits.map((h) => h.record))).toEqual([
        'Broker outage notes',
        'Jobs go through SQS',
      ]);
      const onlyQuestions = await storage.searchRecords({
        namespace: NS,
        query: 'background',
        limit: 5,
      });
      expect(titles(onlyQuestions.map((h) => h.record))).toEqual(['Jobs go through SQS']);
      const heavy = await storage.searchRecords({
        namespace: NS,
        query: 'broker',
        limit: 5,
        weights: { questions: 100, title: 0.01 },
      });
      expect(heavy[0]?.record.title).toBe('Jobs go through SQS');
      // An edit of the questions is searched at once.
      const [record0] = (await storage.listRecords({ namespace: NS, limit: 10 })).items.filter(
        (r) => r.title === 'Jobs go through SQS',
      );
      await storage.updateRecord(record0!.record_id, { questions: ['What replaced redis?'] });
      expect(await storage.searchRecords({ namespace: NS, query: 'background', limit: 5 })).toEqual(
        [],
      );
    });
  });

  describe('supersession', () => {
    it('links both ways, is kept in the record, and lists current records only when asked', async () => {
      const storage = await open();
      const old = record({ title: 'Queue on Redis', created_at: '2026-01-01T00:00:00.000Z' });
      const mid = record({ title: 'Queue on RabbitMQ', created_at: '2026-02-01T00:00:00.000Z' });
      const now = record({ title: 'Queue on SQS', created_at: '2026-03-01T00:00:00.000Z' });
      for (const r of [old, mid, now]) await storage.putRecord(r);
      const linked = await storage.supersedeRecord({
        recordId: old.record_id,
        supersededBy: mid.record_id,
        at: '2026-02-01T00:00:01.000Z',
        reason: 'same subject: queue',
      });
      expect(linked).toEqual({
        ...old,
        superseded_by: mid.record_id,
        superseded_at: '2026-02-01T00:00:01.000Z',
        superseded_reason: 'same subject: queue',
      });
      await storage.supersedeRecord({ recordId: mid.record_id, supersededBy: now.record_id });
      expect((await storage.getRecord(old.record_id))?.superseded_by).toBe(mid.record_id);
      expect((await storage.getRecord(mid.record_id))?.superseded_at).toBeDefined();
      expect(titles(await storage.listSuperseded([now.record_id]))).toEqual(['Queue on RabbitMQ']);
      expect(titles(await storage.listSuperseded([now.record_id, mid.record_id]))).toEqual([
        'Queue on RabbitMQ',
        'Queue on Redis',
      ]);
      const current = await storage.listRecords({ namespace: NS, current: true, limit: 10 });
      expect(titles(current.items)).toEqual(['Queue on SQS']);
      expect(current.total).toBe(1);
      expect((await storage.listRecords({ namespace: NS, limit: 10 })).total).toBe(3);
      // Search finds superseded records unless asked for current ones only.
      expect(await storage.searchRecords({ namespace: NS, query: 'queue', limit: 5 })).toHaveLength(
        3,
      );
      const currentHits = await storage.searchRecords({
        namespace: NS,
        query: 'queue',
        limit: 5,
        current: true,
      });
      expect(currentHits.map((h) => h.record.title)).toEqual(['Queue on SQS']);
    });

    it('undoes: the record is current again', async () => {
      const old = record({ title: 'Timeout is 10 s' });
      const fresh = record({ title: 'Timeout is 30 s' });
      const storage = await holding({ open }, old, fresh);
      await storage.supersedeRecord({ recordId: old.record_id, supersededBy: fresh.record_id });
      expect(await storage.clearSupersession(old.record_id)).toEqual(old);
      expect(await storage.getRecord(old.record_id)).toEqual(old);
      expect(await storage.listSuperseded([fresh.record_id])).toEqual([]);
      expect(await storage.clearSupersession('mr_missing')).toBeUndefined();
    });

    it('refuses a record superseding itself, another project, or a cycle; missing ids answer undefined', async () => {
      const storage = await open();
      const a = record({ title: 'A' });
      const b = record({ title: 'B' });
      const c = record({ title: 'C' });
      const elsewhere = record({ title: 'Elsewhere', namespace: OTHER });
      for (const r of [a, b, c, elsewhere]) await storage.putRecord(r);
      const refused = async (recordId: string, supersededBy: string) => {
        const error = await storage.supersedeRecord({ recordId, supersededBy }).catch((e) => e);
        expect(error).toBeInstanceOf(StorageError);
        expect((error as StorageError).code).toBe('invalid_link');
      };
      await refused(a.record_id, a.record_id);
      await refused(a.record_id, elsewhere.record_id);
      await storage.supersedeRecord({ recordId: a.record_id, supersededBy: b.record_id });
      await storage.supersedeRecord({ recordId: b.record_id, supersededBy: c.record_id });
      await refused(c.record_id, a.record_id);
      await refused(b.record_id, a.record_id);
      expect(
        await storage.supersedeRecord({ recordId: a.record_id, supersededBy: 'mr_missing' }),
      ).toBeUndefined();
      expect(
        await storage.supersedeRecord({ recordId: 'mr_missing', supersededBy: a.record_id }),
      ).toBeUndefined();
      // A refused link changed nothing.
      expect((await storage.getRecord(c.record_id))?.superseded_by).toBeUndefined();
      expect((await storage.getRecord(a.record_id))?.superseded_by).toBe(b.record_id);
    });

    it('deleting or forgetting the newer record makes the older current again; replacing it keeps the link', async () => {
      const old = record({ title: 'Port 8080' });
      const fresh = record({ title: 'Port 9090' });
      const storage = await holding({ open }, old, fresh);
      await storage.supersedeRecord({
        recordId: old.record_id,
        supersededBy: fresh.record_id,
        reason: 'changed value: 8080 → 9090',
      });
      // Saving the newer record again (an edit, a re-import) keeps what it superseded.
      await storage.putRecord({ ...fresh, summary: 'The API listens on 9090 now.' });
      expect((await storage.getRecord(old.record_id))?.superseded_by).toBe(fresh.record_id);
      await storage.updateRecord(fresh.record_id, { title: 'Port 9090 (API)' });
      expect((await storage.getRecord(old.record_id))?.superseded_by).toBe(fresh.record_id);
      expect(await storage.deleteRecord(fresh.record_id)).toBe(true);
      expect(await storage.getRecord(old.record_id)).toEqual(old);

      const source = event();
      await storage.putEvent(source);
      const older = record({ title: 'Uses npm' });
      const newer = record({ title: 'Uses pnpm', source_event_ids: [source.event_id] });
      await storage.putRecord(older);
      await storage.putRecord(newer);
      await storage.supersedeRecord({ recordId: older.record_id, supersededBy: newer.record_id });
      await storage.forget({ event: source.event_id });
      expect(await storage.getRecord(newer.record_id)).toBeUndefined();
      expect(await storage.getRecord(older.record_id)).toEqual(older);
    });

    it('a record put with its link keeps it (import), and links survive a restart', async () => {
      let storage = await open();
      const fresh = record({ title: 'Node 22' });
      const old = record({
        title: 'Node 20',
        superseded_by: fresh.record_id,
        superseded_at: '2026-04-01T00:00:00.000Z',
        superseded_reason: 'imported',
      });
      // The older one first: a link may name a record stored after it.
      await storage.putRecord(old);
      await storage.putRecord(fresh);
      expect(await storage.getRecord(old.record_id)).toEqual(old);
      await storage.close();
      storage = await reopen(storage);
      expect(await storage.getRecord(old.record_id)).toEqual(old);
      expect(titles(await storage.listSuperseded([fresh.record_id]))).toEqual(['Node 20']);
      const scanned = await storage.scanRecords({ limit: 10 });
      expect(scanned.items.find((r) => r.record_id === old.record_id)).toEqual(old);
    });
  });
}

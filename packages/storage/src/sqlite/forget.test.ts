import { existsSync, readFileSync } from 'node:fs';
import { newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { allPages, event, NS, openTemp, record } from '../../test/helpers.js';
import type { ForgetScope, SqliteStorage } from '../index.js';

const OTHER = '/actor/alice/project/billing/';

/** Every byte of the database and its WAL: the forgotten text must be in neither. */
function fileHas(storage: SqliteStorage, needle: string): boolean {
  return ['', '-wal'].some(
    (suffix) =>
      existsSync(storage.path + suffix) &&
      readFileSync(storage.path + suffix).includes(Buffer.from(needle)),
  );
}

/** One project with a session holding a secret in an event, a record and a retrieval. */
async function seed(storage: SqliteStorage, secret: string, overrides = {}) {
  const e = event({
    session_id: 'sess-secret',
    body: { type: 'text', content: `the password is ${secret}` },
    ...overrides,
  });
  await storage.putEvent(e, { pending: true });
  const r = record({
    title: `Login uses ${secret}`,
    summary: `The staging password ${secret} was shared in chat.`,
    facts: [`${secret} is the password`],
    source_event_ids: [e.event_id],
    ...overrides,
  });
  await storage.putRecord(r);
  await storage.logRetrieval({
    namespace: e.namespace,
    sessionId: e.session_id,
    eventId: e.event_id,
    query: `what is ${secret}`,
    recordIds: [r.record_id],
    scores: [1],
    latencyMs: 1,
    timedOut: false,
    budgetCut: false,
  });
  return { e, r };
}

/** Plenty of unrelated rows, so pages are shared with what stays. */
async function background(storage: SqliteStorage) {
  for (let i = 0; i < 200; i++) {
    await storage.putEvent(event({ namespace: OTHER, session_id: `s${i % 7}` }));
    if (i % 4 === 0)
      await storage.putRecord(
        record({ namespace: OTHER, title: `note ${i}`, summary: `kept text ${i}` }),
      );
  }
}

describe('forget', () => {
  const scopes: Array<[string, (ids: { e: string; r: string }) => ForgetScope]> = [
    ['record', ({ r }) => ({ record: r })],
    ['event', ({ e }) => ({ event: e })],
    ['session', () => ({ session: 'sess-secret', namespace: NS })],
    ['project', () => ({ namespace: NS })],
    ['before a date', () => ({ before: new Date(Date.now() + 1000).toISOString(), namespace: NS })],
    ['all', () => ({ all: true })],
  ];

  for (const [name, scopeOf] of scopes) {
    it(`leaves no trace of the text in the file or its WAL: ${name}`, async () => {
      const storage = await openTemp();
      await background(storage);
      const secret = `zq${newEventId().toLowerCase()}`;
      const { e, r } = await seed(storage, secret);
      // Edit the record once, so an old version of its text sits in the index too.
      await storage.updateRecord(r.record_id, { summary: `Edited: ${secret} rotated.` });
      await background(storage);
      expect(fileHas(storage, secret)).toBe(true);

      const scope = scopeOf({ e: e.event_id, r: r.record_id });
      const preview = await storage.countForget(scope);
      const counts = await storage.forget(scope);
      expect(counts).toEqual(preview);
      expect(counts.records).toBeGreaterThanOrEqual(1);

      expect(await storage.getRecord(r.record_id)).toBeUndefined();
      expect(await storage.searchRecords({ query: secret, limit: 5 })).toEqual([]);
      if (name !== 'record') {
        expect(await storage.getEvent(e.event_id)).toBeUndefined();
        expect(await storage.listPending(NS)).toEqual([]);
        expect(await storage.listRetrievals({ limit: 10, namespace: NS })).toEqual([]);
        expect(fileHas(storage, secret)).toBe(false);
      } else {
        // The event itself stays; only the record's own copies of the text go.
        expect(await storage.getEvent(e.event_id)).toBeDefined();
      }
      // What was not asked for stays, and the counters agree with the rows.
      const stats = await storage.stats();
      const other = stats.projects.find((p) => p.namespace === OTHER);
      if (name === 'all') expect(stats.projects).toEqual([]);
      else expect(other).toMatchObject({ events: 400, memories: 100 });
      const kept = await storage.listRecords({ namespace: OTHER, limit: 1 });
      expect(kept.total).toBe(name === 'all' ? 0 : 100);
      if (name !== 'all') {
        const hits = await storage.searchRecords({ query: 'note 40', namespace: OTHER, limit: 1 });
        expect(hits[0]?.record.title).toBe('note 40');
      }
    });
  }

  it('forgets a record alone without trace when its event is kept', async () => {
    const storage = await openTemp();
    const secret = `zq${newEventId().toLowerCase()}`;
    const r = record({ title: `Title ${secret}`, summary: 'no secret here' });
    await storage.putRecord(r);
    await background(storage);
    await storage.forget({ record: r.record_id });
    expect(fileHas(storage, secret)).toBe(false);
  });

  it('counts nothing and deletes nothing for a scope that matches nothing', async () => {
    const storage = await openTemp();
    await background(storage);
    const empty = { events: 0, records: 0, pending: 0, logs: 0 };
    expect(await storage.countForget({ session: 'none' })).toEqual(empty);
    expect(await storage.forget({ namespace: '/actor/x/project/none/' })).toEqual(empty);
    expect((await storage.stats()).events.total).toBe(200);
  });
});

describe('retention (pruneEvents)', () => {
  it('drops events older than a time, keeps records, and dry-runs first', async () => {
    const storage = await openTemp();
    const old = event({ body: { type: 'text', content: 'ancient zqancient' } });
    await storage.putEvent(old, { receivedAt: '2020-01-01T00:00:00.000Z', pending: true });
    const fresh = event();
    await storage.putEvent(fresh);
    const r = record({ source_event_ids: [old.event_id] });
    await storage.putRecord(r);
    const policy = { olderThan: '2021-01-01T00:00:00.000Z' };
    expect(await storage.pruneEvents({ ...policy, dryRun: true })).toMatchObject({
      events: 1,
      pending: 1,
    });
    expect(await storage.getEvent(old.event_id)).toBeDefined();
    expect(await storage.pruneEvents(policy)).toMatchObject({ events: 1, records: 0 });
    expect(await storage.getEvent(old.event_id)).toBeUndefined();
    expect(await storage.getEvent(fresh.event_id)).toBeDefined();
    expect(await storage.getRecord(r.record_id)).toBeDefined();
    expect(fileHas(storage, 'zqancient')).toBe(false);
  });

  it("caps a project's event bytes, oldest first, leaving other projects alone", async () => {
    const storage = await openTemp();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const e = event({ body: { type: 'text', content: 'x'.repeat(1000) } });
      ids.push(e.event_id);
      await storage.putEvent(e);
      await storage.putEvent(event({ namespace: OTHER }));
    }
    const size = (await storage.scanEvents({ namespace: NS, limit: 1 })).items[0]!.json.length;
    const dropped = await storage.pruneEvents({ namespace: NS, maxBytes: size * 4 });
    expect(dropped.events).toBe(6);
    const left = await storage.scanEvents({ namespace: NS, limit: 100 });
    expect(left.items.map((s) => (JSON.parse(s.json) as { event_id: string }).event_id)).toEqual(
      ids.slice(6),
    );
    expect((await storage.stats(OTHER)).events.total).toBe(10);
  });
});

describe('scan (export paging)', () => {
  it('pages events oldest first as stored text, and records in a stable order', async () => {
    const storage = await openTemp();
    const events = Array.from({ length: 25 }, () => event());
    for (const e of events) await storage.putEvent(e);
    await storage.putEvent(event({ namespace: OTHER }));
    const seen = (
      await allPages((cursor) => storage.scanEvents({ namespace: NS, limit: 10, ...cursor }))
    ).map((s) => s.json);
    expect(seen).toEqual(events.map((e) => JSON.stringify(e)));
    for (let i = 0; i < 3; i++) await storage.putRecord(record());
    const records = await storage.scanRecords({ limit: 2 });
    expect(records.items).toHaveLength(2);
    const rest = await storage.scanRecords({ limit: 2, cursor: records.nextCursor! });
    expect(rest.items).toHaveLength(1);
    expect(rest.nextCursor).toBeUndefined();
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { event, NS, onCleanup, openTemp, record, tempDir } from '../../test/helpers.js';
import { StorageError } from '../errors.js';
import { openSqliteReader } from './reader.js';

async function withReader() {
  const storage = await openTemp();
  const reader = openSqliteReader({ path: storage.path });
  onCleanup(() => reader.close());
  return { storage, reader };
}

describe('openSqliteReader', () => {
  it('reads what the writer committed, from its own connection, as the writer reads it', async () => {
    const { storage, reader } = await withReader();
    const first = event({ kind: 'prompt' });
    await storage.putEvent(first, { pending: true });
    // The reader is running now; what is written afterwards shows up in its next read.
    expect((await reader.stats()).events.total).toBe(1);
    const second = event({ kind: 'tool_use' });
    await storage.putEvent(second, { pending: true });
    const saved = record({ source_event_ids: [first.event_id] });
    await storage.putRecord(saved);
    await storage.logRetrieval({
      namespace: NS,
      query: 'webhook',
      recordIds: [saved.record_id],
      scores: [1],
      latencyMs: 3,
      timedOut: false,
      budgetCut: false,
    });

    expect(await reader.stats()).toEqual(await storage.stats());
    expect(await reader.listEvents({ limit: 10 })).toEqual(await storage.listEvents({ limit: 10 }));
    expect(await reader.getEventJson(second.event_id)).toBe(
      await storage.getEventJson(second.event_id),
    );
    expect(await reader.getEvents([second.event_id, first.event_id])).toEqual([second, first]);
    expect(await reader.listRecords({ limit: 10, namespace: NS })).toEqual({
      items: [saved],
      total: 1,
    });
    expect(await reader.getRecords([saved.record_id])).toEqual([saved]);
    expect(await reader.pendingSummary()).toEqual(await storage.pendingSummary());
    expect(await reader.listRetrievals({ limit: 5 })).toEqual(
      await storage.listRetrievals({ limit: 5 }),
    );
    expect(await reader.scanEvents({ limit: 10 })).toEqual(await storage.scanEvents({ limit: 10 }));
    expect(await reader.scanRecords({ limit: 10 })).toEqual(
      await storage.scanRecords({ limit: 10 }),
    );
    expect(await reader.sizeBytes()).toBeGreaterThan(0);
    const shared = record({ namespace: '/actor/team:core/project/payments-api/' });
    await storage.putTeamRecord({
      record: shared,
      team: 'core',
      member: 'alice',
      admin: false,
      revision: 2,
    });
    expect(await reader.teamRecordInfo([shared.record_id, saved.record_id])).toEqual(
      await storage.teamRecordInfo([shared.record_id]),
    );
  });

  it('answers reads that overlap, each with its own result', async () => {
    const { storage, reader } = await withReader();
    const events = Array.from({ length: 20 }, (_, i) => event({ session_id: `s${i}` }));
    for (const e of events) await storage.putEvent(e);
    const pages = await Promise.all(
      events.map((e) => reader.listEvents({ limit: 5, sessionId: e.session_id })),
    );
    expect(pages.map((p) => p.items.map((i) => i.event_id))).toEqual(
      events.map((e) => [e.event_id]),
    );
  });

  it('runs a read model where it reads, and says which model does not exist', async () => {
    const storage = await openTemp();
    const reader = openSqliteReader({
      path: storage.path,
      models: new URL('../../test/fixtures/read-models.ts', import.meta.url),
    });
    onCleanup(() => reader.close());
    await storage.putEvent(event({ kind: 'prompt' }));
    await storage.putEvent(event({ kind: 'tool_use' }));
    expect(await reader.model('kinds', 10)).toEqual(['tool_use', 'prompt']);
    await expect(reader.model('nope')).rejects.toThrow('no read model nope');
  });

  it('keeps the storage error code of a refused read, and cannot write', async () => {
    const { reader } = await withReader();
    const refused = await reader.listEvents({ limit: 1, cursor: 'nope' }).catch((e) => e);
    expect(refused).toBeInstanceOf(StorageError);
    expect(refused.code).toBe('invalid_cursor');
    // Only the reads exist on it: no method to write with.
    expect('putEvent' in reader).toBe(false);
  });

  it('says so when the database does not exist (it never creates one)', async () => {
    const path = join(tempDir(), 'missing.db');
    const reader = openSqliteReader({ path });
    onCleanup(() => reader.close());
    const error = await reader.stats().catch((e) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toContain(path);
  });

  it('refuses reads once closed', async () => {
    const { reader } = await withReader();
    await reader.stats();
    await reader.close();
    await expect(reader.stats()).rejects.toMatchObject({ code: 'closed' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryRecord, newEventId, newRecordId } from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { afterEach } from 'vitest';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SQLite database in a fresh temp directory, closed and removed after the test. */
export async function openTemp(): Promise<SqliteStorage> {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-retrieval-'));
  const storage = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => storage.close());
  return storage;
}

export const NS = '/actor/alice/project/payments-api/';

export function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    record_id: newRecordId(),
    namespace: NS,
    strategy: 'builtin',
    title: 'A memory',
    summary: 'Something that happened.',
    facts: [],
    concepts: [],
    files_touched: [],
    observation_type: 'discovery',
    source_event_ids: [newEventId()],
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Event, type MemoryRecord, newEventId, newRecord } from '@kiro-learn/schema';
import { afterEach } from 'vitest';
import { openSqliteStorage, type SqliteStorage } from '../src/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test (in reverse order of registration). */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-storage-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function openTemp(): Promise<SqliteStorage> {
  const storage = await openSqliteStorage({ path: join(tempDir(), 'data', 'kiro-learn.db') });
  cleanups.push(() => storage.close());
  return storage;
}

export const NS = '/actor/alice/project/payments-api/';

export function event(overrides: Partial<Event> = {}): Event {
  return {
    event_id: newEventId(),
    session_id: 'sess-1',
    actor_id: 'alice',
    namespace: NS,
    schema_version: 1,
    kind: 'prompt',
    body: { type: 'text', content: 'why does the webhook test fail?' },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'test' },
    ...overrides,
  };
}

/** A built-in record in NS (schema's newRecord: fresh ids, now), with `overrides` on top. */
export function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const base = newRecord({
    namespace: NS,
    strategy: 'builtin',
    title: 'A memory',
    summary: 'Something that happened.',
  });
  return { ...base, ...overrides };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

export { NS, record } from '@kiro-learn/test-harness/records';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

export { event } from '@kiro-learn/test-harness/events';
export { NS, record } from '@kiro-learn/test-harness/records';

/** Namespaces a LIKE pattern or a sloppy prefix match would confuse (`_` and `%` are wildcards). */
export const LOOKALIKE_NAMESPACES = [
  '/actor/a_b/project/p/',
  '/actor/a%b/project/p/',
  '/actor/axb/project/p/',
];

/**
 * Every item of a paged read, following `nextCursor` to the last page; `read` gets the
 * cursor to pass on (none for the first page).
 */
export async function allPages<T>(
  read: (cursor: {
    cursor?: string;
  }) => Promise<{ items: readonly T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor ? { cursor } : {});
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

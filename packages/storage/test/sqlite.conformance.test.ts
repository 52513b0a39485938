import { join } from 'node:path';
import { openSqliteStorage, type SqliteStorage, type StorageBackend } from '../src/index.js';
import { describeStorageConformance } from './conformance/index.js';
import { onCleanup, tempDir } from './helpers.js';

async function openAt(path: string): Promise<SqliteStorage> {
  const storage = await openSqliteStorage({ path });
  onCleanup(() => storage.close());
  return storage;
}

describeStorageConformance('SQLite', {
  open: () => openAt(join(tempDir(), 'data', 'kiro-learn.db')),
  reopen: (closed: StorageBackend) => openAt((closed as SqliteStorage).path),
});

import { join } from 'node:path';
import { describe } from 'vitest';
import { openSqliteStorage, type SqliteStorage, type StorageBackend } from '../src/index.js';
import { dataConformance } from './conformance/data.js';
import { describeStorageConformance } from './conformance/index.js';
import { recordsConformance } from './conformance/records.js';
import { searchConformance } from './conformance/search.js';
import { supersessionConformance } from './conformance/supersession.js';
import { onCleanup, tempDir } from './helpers.js';

async function openAt(path: string, impactMinPostings?: number): Promise<SqliteStorage> {
  const storage = await openSqliteStorage({
    path,
    ...(impactMinPostings === undefined ? {} : { impactMinPostings }),
  });
  onCleanup(() => storage.close());
  return storage;
}

describeStorageConformance('SQLite', {
  open: () => openAt(join(tempDir(), 'data', 'kiro-learn.db')),
  reopen: (closed: StorageBackend) => openAt((closed as SqliteStorage).path),
});

// Every lexical search of a namespace through the impact-ordered table (its default only
// takes searches of more than 2,000 postings, which these corpora never reach): the same
// answers, and the table kept true through edits, supersession, forgetting and imports.
describe('StorageBackend conformance: SQLite, impact-ordered search', () => {
  const impacts = {
    open: () => openAt(join(tempDir(), 'data', 'kiro-learn.db'), 0),
    reopen: (closed: StorageBackend) => openAt((closed as SqliteStorage).path, 0),
  };
  recordsConformance(impacts);
  searchConformance(impacts);
  supersessionConformance(impacts);
  dataConformance(impacts);
});

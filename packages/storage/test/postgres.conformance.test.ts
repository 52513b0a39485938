import { freshSchema } from '@kiro-learn/test-postgres';
import { inject } from 'vitest';
import type { StorageBackend } from '../src/index.js';
import { openPostgresStorage, type PostgresStorage } from '../src/postgres/index.js';
import { describeStorageConformance } from './conformance/index.js';
import { onCleanup } from './helpers.js';

async function openIn(schema: string): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({ url: inject('postgresUrl'), schema });
  onCleanup(() => storage.close());
  return storage;
}

describeStorageConformance('PostgreSQL', {
  open: () => openIn(freshSchema()),
  reopen: (closed: StorageBackend) => openIn((closed as PostgresStorage).schema),
});

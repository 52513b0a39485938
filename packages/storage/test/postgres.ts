// PostgreSQL backends for tests: on the server the test run started (`postgresUrl`), each
// in a schema of its own, closed after the test.
import { freshSchema } from '@kiro-learn/test-postgres';
import { inject } from 'vitest';
import {
  openPostgresStorage,
  type PostgresStorage,
  type PostgresStorageOptions,
} from '../src/postgres/index.js';
import { onCleanup } from './helpers.js';

/** A backend in `options.schema`, or in a fresh schema; closed after the test. */
export async function openPostgresTemp(
  options: Partial<PostgresStorageOptions> = {},
): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({
    url: inject('postgresUrl'),
    schema: freshSchema(),
    ...options,
  });
  onCleanup(() => storage.close());
  return storage;
}

import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import type { StorageBackend } from '../src/index.js';
import type { PostgresStorage } from '../src/postgres/index.js';
import { describeStorageConformance } from './conformance/index.js';
import { openPostgresTemp } from './postgres.js';

async function openIn(schema: string): Promise<PostgresStorage> {
  return openPostgresTemp({ schema });
}

// One schema for the file, emptied for each test: migrating a fresh schema per test
// would cost more than the tests themselves.
const schema = freshSchema();

async function openEmpty(): Promise<PostgresStorage> {
  const storage = await openIn(schema);
  const { rows } = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables
    WHERE schemaname = ${schema} AND tablename <> 'schema_migrations'`.execute(storage.db);
  const tables = sql.join(rows.map((row) => sql.ref(row.name)));
  await sql`TRUNCATE ${tables} RESTART IDENTITY CASCADE`.execute(storage.db);
  return storage;
}

describeStorageConformance('PostgreSQL', {
  open: openEmpty,
  reopen: (closed: StorageBackend) => openIn((closed as PostgresStorage).schema),
});

// PostgreSQL backends for tests: on the server the test run started (`postgresUrl`), each
// in a schema of its own, closed after the test.
import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
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

/** Postings that differ from what the records' vectors give (both ways): none when kept right. */
export async function impactDrift(storage: PostgresStorage): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH expected AS (
      SELECT r.lexeme, n.id AS ns, r.impact, m.record_id, r.tf, r.q, r.len, r.qlen
      FROM memory_records m JOIN impact_namespaces n ON n.namespace = m.namespace
      CROSS JOIN LATERAL impact_rows(m.search, m.questions_search) r
    ), actual AS (SELECT lexeme, ns, impact, record_id, tf, q, len, qlen FROM impact_postings)
    SELECT (SELECT count(*) FROM (SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) a)
      + (SELECT count(*) FROM (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected) b) AS n`.execute(
    storage.db,
  );
  return Number(rows[0]!.n);
}

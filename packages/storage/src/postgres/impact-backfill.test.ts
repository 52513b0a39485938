import { freshSchema } from '@kiro-learn/test-postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { NS } from '../../test/helpers.js';
import { impactDrift, openPostgresTemp } from '../../test/postgres.js';
import {
  expectSameRanking,
  OTHER,
  putRecords,
  randomRecord,
  words,
} from '../../test/random-records.js';
import { migrationChecksum } from '../migrate.js';
import { backfillImpacts } from './impact-backfill.js';
import { migratePostgres, PG_MIGRATIONS } from './migrations.js';
import type { PostgresStorage } from './open.js';

/** The third weights the same-answer checks use: questions weigh most. */
const ODD_WEIGHTS = { title: 1, summary: 20, questions: 30 };

/** Back to a database before migration 0014 (its records stay). */
const BEFORE_IMPACTS = [
  'DROP TRIGGER memory_records_impacts_aiud ON memory_records',
  'DROP TRIGGER memory_records_impact_queue_ad ON memory_records',
  'DROP TABLE impact_queue',
  'DROP FUNCTION impact_queue_deleted()',
  'DROP FUNCTION memory_records_impacts(), impact_namespace(text), impact_rows(tsvector, tsvector)',
  'DROP FUNCTION impact_of(integer, integer, integer, integer, integer, integer, integer), impact_h2(integer)',
  'DROP TABLE impact_postings, impact_namespaces, impact_counts, impact_count_deltas',
  'DROP FUNCTION impact_postings_added(), impact_postings_removed()',
  "DELETE FROM schema_migrations WHERE name >= '0014'",
];

/** A schema at migration 0013 holding `n` records (a third of them in another project). */
async function storedBeforeUpgrade(n: number): Promise<string> {
  const schema = freshSchema();
  const first = await openPostgresTemp({ schema, impactBackfill: false });
  for (const statement of BEFORE_IMPACTS) await sql.raw(statement).execute(first.db);
  await putRecords(
    first,
    Array.from({ length: n }, (_, i) => randomRecord(i % 3 === 0 ? OTHER : NS)),
  );
  await first.close();
  return schema;
}

async function count(storage: PostgresStorage, table: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(
    storage.db,
  );
  return Number(rows[0]!.n);
}

/** Until the backlog is gone (no time limit: the test's own timeout is the bound). */
async function drained(storage: PostgresStorage): Promise<void> {
  while ((await storage.impactBacklog()) > 0) await new Promise((r) => setTimeout(r, 20));
}

describe('PostgreSQL impact postings of records stored before the upgrade', () => {
  it('opens without indexing them, answers as the full ranking while it indexes them in the background, then through the lists', async () => {
    const schema = await storedBeforeUpgrade(600);
    const fast = await openPostgresTemp({ schema });
    // Right after open: the records wait in the queue, the migration indexed none of them.
    expect(await fast.impactBacklog()).toBeGreaterThan(0);
    const full = await openPostgresTemp({ schema, impactSearch: false, impactBackfill: false });
    await expectSameRanking(fast, full, 6, ODD_WEIGHTS);
    await drained(fast);
    expect(await impactDrift(fast)).toBe(0);
    await expectSameRanking(fast, full, 15, ODD_WEIGHTS);
  });

  it('answers as the full ranking with part of the records indexed, and a restart resumes where the last batch ended', async () => {
    const schema = await storedBeforeUpgrade(300);
    const first = await openPostgresTemp({ schema, impactBackfill: false });
    const full = await openPostgresTemp({ schema, impactSearch: false, impactBackfill: false });
    expect(await first.impactBacklog()).toBe(300);
    expect(await count(first, 'impact_postings')).toBe(0);
    expect((await backfillImpacts(first.db, 40)).indexed).toBe(40);
    expect((await backfillImpacts(first.db, 40)).indexed).toBe(40);
    expect(await first.impactBacklog()).toBe(220);
    // A queued record that goes takes its place in the queue with it.
    const { rows } = await sql<{ record_id: string }>`
      SELECT record_id FROM impact_queue ORDER BY record_id DESC LIMIT 10`.execute(first.db);
    for (const { record_id } of rows) await first.deleteRecord(record_id);
    expect(await first.impactBacklog()).toBe(210);
    const partial = await count(first, 'impact_postings');
    expect(partial).toBeGreaterThan(0);
    await expectSameRanking(first, full, 10, ODD_WEIGHTS);
    await first.close();
    // The next collector indexes the rest, nothing twice.
    const next = await openPostgresTemp({ schema, impactBackfill: { batch: 25, pauseRatio: 0 } });
    await drained(next);
    expect(await impactDrift(next)).toBe(0);
    await expectSameRanking(next, full, 10, ODD_WEIGHTS);
  });

  it('two collectors share the queue, and records written meanwhile are indexed once', async () => {
    const schema = await storedBeforeUpgrade(400);
    const a = await openPostgresTemp({ schema, impactBackfill: false });
    const b = await openPostgresTemp({ schema, impactBackfill: false });
    const full = await openPostgresTemp({ schema, impactSearch: false, impactBackfill: false });
    const { rows } = await sql<{ record_id: string }>`
      SELECT record_id FROM impact_queue ORDER BY record_id DESC LIMIT 40`.execute(a.db);
    const edited = await a.getRecords(rows.map((r) => r.record_id));
    // Batches of both at once, while queued records are edited and new ones come.
    const taken: number[] = [];
    const backfilling = (async () => {
      for (let round = 0; round < 4; round++) {
        const batches = [a, b, a, b].map(async (s) => (await backfillImpacts(s.db, 20)).indexed);
        taken.push(...(await Promise.all(batches)));
      }
    })();
    const writing = (async () => {
      for (const r of edited) await b.putRecord({ ...r, title: words(4), summary: words(9) });
      await putRecords(
        b,
        Array.from({ length: 20 }, () => randomRecord(NS)),
      );
    })();
    await Promise.all([backfilling, writing]);
    // Every queued record left the queue once, through one batch.
    const left = await a.impactBacklog();
    expect(left).toBeGreaterThan(0);
    expect(taken.reduce((sum, n) => sum + n, 0)).toBe(400 - left);
    for (let n = 1; n > 0; ) {
      n = (await backfillImpacts(b.db, 100)).indexed;
      taken.push(n);
    }
    expect(taken.reduce((sum, n) => sum + n, 0)).toBe(400);
    expect(await a.impactBacklog()).toBe(0);
    expect(await impactDrift(a)).toBe(0);
    await expectSameRanking(a, full, 10, ODD_WEIGHTS);
  });

  it('a record being written when its batch comes stays queued, and a later pass indexes it', async () => {
    const schema = await storedBeforeUpgrade(120);
    // Migrated first: the migration's queue waits for a record being written.
    await openPostgresTemp({ schema, impactBackfill: false });
    const writer = new pg.Client({ connectionString: inject('postgresUrl') });
    await writer.connect();
    await writer.query(`SET search_path TO ${schema}`);
    await writer.query('BEGIN');
    // (FOR UPDATE beside OFFSET would lock the rows skipped too.)
    const { rows } = await writer.query<{ record_id: string }>(
      `SELECT record_id FROM memory_records WHERE record_id = (
        SELECT record_id FROM memory_records ORDER BY record_id LIMIT 1 OFFSET 50) FOR UPDATE`,
    );
    const storage = await openPostgresTemp({
      schema,
      impactBackfill: { batch: 10, pauseRatio: 0 },
    });
    while ((await storage.impactBacklog()) > 1) await new Promise((r) => setTimeout(r, 20));
    const { rows: queued } = await sql<{ record_id: string }>`
      SELECT record_id FROM impact_queue`.execute(storage.db);
    expect(queued).toEqual(rows);
    await writer.query('ROLLBACK');
    await writer.end();
    await drained(storage);
    expect(await impactDrift(storage)).toBe(0);
  });

  it('a database that applied the first 0014 (every record indexed in the migration) opens with nothing to do', async () => {
    const schema = await storedBeforeUpgrade(150);
    // The first text of 0014: the present one plus the two statements that indexed every record.
    const present = PG_MIGRATIONS.find((m) => m.name === '0014_impact_postings')!;
    const statements = [...present.statements];
    const index = statements.findIndex((s) => s.startsWith('CREATE INDEX impact_postings_list'));
    statements.splice(
      index,
      0,
      `INSERT INTO impact_namespaces (namespace)
        SELECT DISTINCT namespace FROM memory_records ORDER BY namespace`,
      `INSERT INTO impact_postings (lexeme, ns, impact, record_id, tf, q, len, qlen)
        SELECT r.lexeme, n.id, r.impact, m.record_id, r.tf, r.q, r.len, r.qlen
        FROM memory_records m JOIN impact_namespaces n ON n.namespace = m.namespace
        CROSS JOIN LATERAL impact_rows(m.search, m.questions_search) r`,
    );
    const first = { name: present.name, statements };
    expect(present.earlierChecksums).toContain(migrationChecksum(first));
    const client = new pg.Client({ connectionString: inject('postgresUrl') });
    await client.connect();
    try {
      await migratePostgres(client, schema, [
        ...PG_MIGRATIONS.filter((m) => m.name < '0014'),
        first,
        ...PG_MIGRATIONS.filter((m) => m.name >= '0015' && m.name < '0017'),
      ]);
    } finally {
      await client.end();
    }
    const fast = await openPostgresTemp({ schema });
    const full = await openPostgresTemp({ schema, impactSearch: false, impactBackfill: false });
    expect(await fast.impactBacklog()).toBe(0);
    expect(await count(fast, 'impact_queue')).toBe(0);
    expect(await impactDrift(fast)).toBe(0);
    await expectSameRanking(fast, full, 10, ODD_WEIGHTS);
  });
});

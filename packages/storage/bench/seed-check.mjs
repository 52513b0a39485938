// Whether seed.mjs writes what putRecord writes: the same records (BENCH_SIZE, default
// 5,000) put into a fresh SQLite database and PostgreSQL schema through putRecord (chunks
// of 2,000, as pg-search.mjs filled before) and through seed.mjs, then per backend the
// derived tables compared row by row (impact postings with their record ids and
// namespaces, list lengths, stopped terms, per-project counts) and 300 searches
// answered by both (the same records, the same scores). Prints the differences it finds;
// exits 1 when there are any. PostgreSQL: KIRO_LEARN_TEST_POSTGRES_URL; its two schemas
// (database BENCH_PG_DATABASE) are dropped after.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { makeRecord, namespaces, words } from './corpus.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';

const SIZE = Number(process.env.BENCH_SIZE) || 5000;
const server =
  process.env.KIRO_LEARN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = process.env.BENCH_PG_DATABASE ?? 'kiro_learn_bench_search';
const url = new URL(server);
url.pathname = `/${database}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`);
await admin.end();

const records = Array.from({ length: SIZE }, (_, i) => makeRecord(i));
const record = (i) => records[i];
const dir = mkdtempSync(join(tmpdir(), 'kiro-learn-seed-check-'));
let differences = 0;
const differ = (what, a, b) => {
  if (a === b) return;
  differences++;
  console.log(`  DIFFERENT ${what}: ${String(a).slice(0, 200)} | ${String(b).slice(0, 200)}`);
};
const digest = (rows) => {
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
  return `${rows.length} rows ${hash.digest('hex').slice(0, 16)}`;
};

async function putAll(storage) {
  for (let have = 0; have < SIZE; have += 2000) {
    const n = Math.min(2000, SIZE - have);
    await Promise.all(Array.from({ length: n }, (_, k) => storage.putRecord(record(have + k))));
  }
  while ((await storage.impactBacklog?.()) > 0) await new Promise((r) => setTimeout(r, 100));
}

/** The derived tables of a SQLite database, keyed by record id and namespace (not rid). */
async function sqliteTables(storage) {
  const q = async (text) => (await sql.raw(text).execute(storage.db)).rows;
  return {
    postings: digest(
      await q(`SELECT p.term, n.namespace, p.impact, r.record_id, p.tf, p.len
        FROM impact_postings p JOIN memory_records r ON r.rid = p.rid
        JOIN impact_namespaces n ON n.id = p.ns ORDER BY 1, 2, 3, 4`),
    ),
    lengths: digest(
      await q(`SELECT l.term, n.namespace, l.len FROM impact_lengths l
        JOIN impact_namespaces n ON n.id = l.ns ORDER BY 1, 2`),
    ),
    stopped: digest(await q('SELECT term FROM impact_stopped ORDER BY 1')),
    fts: digest(await q('SELECT term, doc, cnt FROM memory_vocab ORDER BY 1')),
    records: digest(await q('SELECT * FROM memory_records ORDER BY record_id')),
    queued: String((await q('SELECT count(*) AS n FROM impact_queue'))[0].n),
    stats: JSON.stringify((await storage.stats()).memories),
  };
}

async function postgresTables(storage) {
  const q = async (text) => (await sql.raw(text).execute(storage.db)).rows;
  return {
    postings: digest(
      await q(`SELECT p.lexeme, n.namespace, p.impact, p.record_id, p.tf, p.q, p.len, p.qlen
        FROM impact_postings p JOIN impact_namespaces n ON n.id = p.ns ORDER BY 1, 2, 3, 4`),
    ),
    records: digest(
      await q(`SELECT m.*, m.search::text AS search, m.questions_search::text AS q
        FROM memory_records m ORDER BY record_id`),
    ),
    // Delta rows (one per statement, folded later by the compactor): their sums.
    counts: digest(
      await q(`SELECT namespace, sum(events)::text AS events, sum(memories)::text AS memories
        FROM namespace_counts GROUP BY 1 ORDER BY 1`),
    ),
    stats: JSON.stringify((await storage.stats()).memories),
  };
}

async function sameAnswers(name, a, b) {
  let hits = 0;
  for (let i = 0; i < 300; i++) {
    const query = { namespace: namespaces[i % namespaces.length], query: words(12), limit: 40 };
    const x = await a.searchRecords(query);
    const y = await b.searchRecords(query);
    hits += x.length;
    const show = (found) => found.map((h) => `${h.record.record_id} ${h.score}`).join(',');
    differ(`${name} search ${i}`, show(x), show(y));
  }
  return hits;
}

console.log(
  `seed.mjs against putRecord, ${SIZE.toLocaleString('en')} records; load ${loadavg()[0].toFixed(1)}`,
);
try {
  // SQLite: putRecord into one file, seed.mjs into another (migrated by the storage first).
  const put = await openSqliteStorage({ path: join(dir, 'put.db') });
  await putAll(put);
  const seededPath = join(dir, 'seed.db');
  await (await openSqliteStorage({ path: seededPath })).close();
  seedSqlite(seededPath, 0, SIZE, record);
  const seeded = await openSqliteStorage({ path: seededPath });
  const [ta, tb] = [await sqliteTables(put), await sqliteTables(seeded)];
  for (const key of Object.keys(ta)) differ(`SQLite ${key}`, ta[key], tb[key]);
  console.log(`  SQLite tables: ${JSON.stringify(tb)}`);
  console.log(`  SQLite: ${await sameAnswers('SQLite', put, seeded)} hits compared`);
  await put.close();
  await seeded.close();

  // PostgreSQL: two fresh schemas.
  const open = (schema) =>
    openPostgresStorage({ url: url.toString(), schema, acquireTimeoutMs: 600_000 });
  const pgPut = await open('seed_check_put');
  const pgSeeded = await open('seed_check_seed');
  try {
    await putAll(pgPut);
    await seedPostgres(pgSeeded, 0, SIZE, record);
    const [pa, pb] = [await postgresTables(pgPut), await postgresTables(pgSeeded)];
    for (const key of Object.keys(pa)) differ(`PostgreSQL ${key}`, pa[key], pb[key]);
    console.log(`  PostgreSQL tables: ${JSON.stringify(pb)}`);
    console.log(`  PostgreSQL: ${await sameAnswers('PostgreSQL', pgPut, pgSeeded)} hits compared`);
  } finally {
    for (const [storage, schema] of [
      [pgPut, 'seed_check_put'],
      [pgSeeded, 'seed_check_seed'],
    ]) {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(storage.db);
      await storage.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(differences === 0 ? 'no difference' : `${differences} differences`);
process.exitCode = differences === 0 ? 0 : 1;

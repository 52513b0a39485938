// PostgreSQL search against SQLite, same run, same corpus: N records (BENCH_SIZE, default
// 100,000) in 20 projects, a Zipf vocabulary (corpus.mjs), prompts of 12 words, one search
// at a time, limit 40. Rounds alternate the backends (SQLite, PostgreSQL through its
// impact-ordered postings, PostgreSQL ranking every match as before migration 0014
// (`impactSearch: false`, same schema), and with BENCH_PG_BEFORE=<path of another build's
// dist/postgres/index.js> that build too, on a schema it can open), each
// round 30 prompts of warm-up then 200 measured, new prompts every round. The first round
// of each backend is right after it was opened (cold caches: term counts, lexemes).
// BENCH_DB=<file> and BENCH_PG_SCHEMA=<schema> keep both databases for the next run
// (records are inserted only up to N). Records go in through seed.mjs (putRecord's
// statements and triggers in big transactions; a million records in minutes, not hours),
// or with BENCH_FILL=put through putRecord, 2,000 at a time. PostgreSQL:
// KIRO_LEARN_TEST_POSTGRES_URL, a database of its own (BENCH_PG_DATABASE, created when
// missing, kept). Prints numbers, asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '@kiro-learn/storage';
import { openPostgresStorage } from '@kiro-learn/storage/postgres';
import { sql } from 'kysely';
import pg from 'pg';
import { environment, fmt, summarize } from '../../../scripts/bench/stats.mjs';
import { makeRecord, namespaces, words } from './corpus.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';

const SIZE = Number(process.env.BENCH_SIZE) || 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 2;
const server =
  process.env.KIRO_LEARN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = process.env.BENCH_PG_DATABASE ?? 'kiro_learn_bench_search';
const schema = process.env.BENCH_PG_SCHEMA ?? `s${SIZE}`;
const SEED = process.env.BENCH_FILL !== 'put';
const load = () => loadavg()[0].toFixed(1);

const admin = new pg.Client({ connectionString: server });
await admin.connect();
const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const url = new URL(server);
url.pathname = `/${database}`;

const dir = process.env.BENCH_DB ? undefined : mkdtempSync(join(tmpdir(), 'kiro-learn-pg-search-'));
const sqlitePath = process.env.BENCH_DB ?? join(dir, 'bench.db');
const openPostgres = (options = {}) =>
  openPostgresStorage({ url: url.toString(), schema, acquireTimeoutMs: 600_000, ...options });
console.log(`load average at the start ${load()}`);

/** Seeds the SQLite file up to SIZE (seed.mjs: the storage, which migrates it, is closed meanwhile). */
async function seedSqliteFile() {
  const migrated = await openSqliteStorage({ path: sqlitePath });
  const have = (await migrated.stats()).memories.total;
  await migrated.close();
  if (have >= SIZE) return;
  const started = performance.now();
  seedSqlite(sqlitePath, have, SIZE, makeRecord);
  const s = (performance.now() - started) / 1000;
  console.log(`  SQLite: seeded ${SIZE - have} records in ${s.toFixed(0)} s (load ${load()})`);
}

async function fill(name, storage) {
  let have = (await storage.stats()).memories.total;
  const started = performance.now();
  const from = have;
  if (SEED && name === 'PostgreSQL' && have < SIZE) {
    await seedPostgres(storage, have, SIZE, makeRecord);
    have = SIZE;
  }
  while (have < SIZE) {
    const n = Math.min(2000, SIZE - have);
    await Promise.all(Array.from({ length: n }, (_, k) => storage.putRecord(makeRecord(have + k))));
    have += n;
  }
  while ((await storage.impactBacklog?.()) > 0) await new Promise((r) => setTimeout(r, 100));
  if (have > from) {
    const s = (performance.now() - started) / 1000;
    const how = SEED && name === 'PostgreSQL' ? 'seeded' : 'inserted';
    console.log(`  ${name}: ${how} ${have - from} records in ${s.toFixed(0)} s (load ${load()})`);
  }
}

// BENCH_FILL_ONLY=sqlite|postgres fills that database and stops: two such processes fill
// both at once (each from the corpus's start, so both hold the same records).
const only = process.env.BENCH_FILL_ONLY;
if (only === 'sqlite') {
  await seedSqliteFile();
  process.exit(0);
}
if (only === 'postgres') {
  const storage = await openPostgres();
  await fill('PostgreSQL', storage);
  await storage.close();
  process.exit(0);
}
if (SEED) await seedSqliteFile();
const sqlite = await openSqliteStorage({ path: sqlitePath });
const opening = performance.now();
const postgres = await openPostgres();
console.log(`PostgreSQL against SQLite search — ${environment()}; load average ${load()}`);
// Long only when it migrates an existing schema (0014 indexes every record).
console.log(`  PostgreSQL opened in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
await fill('SQLite', sqlite);
await fill('PostgreSQL', postgres);
// As autovacuum would after an import (it vacuums a table after inserts, which sets the
// visibility map that lets a count of postings skip the heap).
// One connection without the pool's statement timeout (a vacuum at a million records takes minutes).
await postgres.db.connection().execute(async (db) => {
  await sql`SET statement_timeout = 0`.execute(db);
  await sql`ANALYZE memory_records`.execute(db);
  await sql`VACUUM ANALYZE impact_postings`.execute(db);
  await sql`SELECT gin_clean_pending_list('memory_records_search'::regclass)`.execute(db);
  await sql`RESET statement_timeout`.execute(db);
});
const mib = (bytes) => `${Math.round(Number(bytes) / 2 ** 20).toLocaleString('en')} MiB`;
const pgSize = async (table) =>
  mib(
    (await sql`SELECT pg_total_relation_size(${table}::regclass) AS b`.execute(postgres.db)).rows[0]
      .b,
  );
console.log(
  `  sizes: SQLite ${mib(await sqlite.sizeBytes())}; PostgreSQL memory_records ${await pgSize('memory_records')}, impact_postings ${await pgSize('impact_postings')} (with indexes)`,
);

const backends = [
  ['SQLite', sqlite],
  ['PostgreSQL', postgres],
  ['PostgreSQL (full rank)', await openPostgres({ impactSearch: false })],
];
if (process.env.BENCH_PG_BEFORE) {
  const before = await import(process.env.BENCH_PG_BEFORE);
  backends.push([
    'PostgreSQL (before)',
    await before.openPostgresStorage({ url: url.toString(), schema, acquireTimeoutMs: 600_000 }),
  ]);
}
console.log(
  `${SIZE.toLocaleString('en')} records in ${namespaces.length} projects; 12-word prompts, limit 40`,
);
let prompt = 0;
const results = new Map(backends.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const prompts = Array.from({ length: 230 }, () => words(12));
  for (const [name, storage] of backends) {
    const latencies = [];
    let hits = 0;
    for (const [i, query] of prompts.entries()) {
      const t = performance.now();
      const found = await storage.searchRecords({
        namespace: namespaces[(prompt + i) % namespaces.length],
        query,
        limit: 40,
      });
      if (i >= 30) {
        latencies.push(performance.now() - t);
        hits += found.length > 0 ? 1 : 0;
      }
    }
    const s = summarize(latencies);
    results.get(name).push(s);
    console.log(
      `  round ${round + 1} ${name.padEnd(20)} p50 ${fmt(s.p50)} p99 ${fmt(s.p99)} (${hits}/200 with hits; load ${load()})`,
    );
  }
  prompt += 230;
}
const base = results.get('SQLite');
for (const [name, list] of results) {
  if (name === 'SQLite') continue;
  const ratios = list.map((s, i) => `${(s.p99 / base[i].p99).toFixed(1)}×`).join(', ');
  console.log(`  ${name} p99 / SQLite p99 per round: ${ratios}`);
}
for (const [, storage] of backends) await storage.close();
if (dir) rmSync(dir, { recursive: true, force: true });
console.log(`load average at the end ${load()}`);

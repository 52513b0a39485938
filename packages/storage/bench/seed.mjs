// Fills the search benches' databases with the corpus's records far faster than putRecord
// does, writing what putRecord writes: the backends' own statements and triggers, in big
// transactions. At 20,000 records putRecord in chunks of 2,000 ran 274 records/s on SQLite
// and 417 on PostgreSQL (load 8–10); SQLite's time went into the impact queue (the write
// batches tokenise 32 records each, the rest 64 at a time behind a 5 ms timer), PostgreSQL's
// into a statement and a commit per record: a million records would have taken 1–2 hours.
// Bench only: `seed-check.mjs` shows a seeded database holds the same rows and answers every
// search as a putRecord-filled one does.
//
// The modules below are the package's own build (dist), imported by path: the bench runs
// putRecord's very statements, not a copy of them.
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { pgRowFromRecord, RECORD_COLUMNS } from '../dist/postgres/rows.js';
import { questionsVector, searchVector } from '../dist/postgres/search.js';
import { DEFAULT_MAX_POSTINGS } from '../dist/query/plan.js';
import { createImpactScratch, drainImpacts, StopTerms } from '../dist/sqlite/impacts.js';
import { upsertRecord } from '../dist/sqlite/records.js';
import { rowFromRecord } from '../dist/sqlite/rows.js';
import { StatementCache } from '../dist/sqlite/statements.js';
import { prepareWrites } from '../dist/sqlite/writes.js';

/** Records per transaction (SQLite) and per INSERT statement (PostgreSQL). */
const SQLITE_CHUNK = 5000;
const PG_CHUNK = 500;

/**
 * Adds records `from` .. `to` - 1 (makeRecord(i)) to the SQLite database at `path`, which
 * the storage has created and migrated and which no storage holds open. Each transaction
 * runs putRecord's upsert for a chunk (its triggers fill FTS5, the counters and the impact
 * queue), then tokenises the queue into impact rows with the storage's own drainImpacts
 * (and the default postings budget's stop terms), as the storage's write batches do.
 */
export function seedSqlite(path, from, to, makeRecord) {
  const sqlite = new Database(path);
  try {
    // As openSqliteStorage sets them, except durability (a crash only loses the bench's
    // fill) and a large cache for the growing B-trees.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma('secure_delete = ON');
    sqlite.pragma('cache_size = -1000000');
    createImpactScratch(sqlite);
    const statements = new StatementCache(sqlite);
    const w = prepareWrites(sqlite);
    const stop = new StopTerms(DEFAULT_MAX_POSTINGS);
    const chunk = sqlite.transaction((start, end) => {
      for (let i = start; i < end; i++) upsertRecord(w, rowFromRecord(makeRecord(i)));
      while (drainImpacts(statements, SQLITE_CHUNK, stop) > 0);
    });
    for (let i = from; i < to; i += SQLITE_CHUNK) chunk(i, Math.min(i + SQLITE_CHUNK, to));
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
  }
}

/**
 * Adds records `from` .. `to` - 1 through the PostgreSQL storage's pool (`storage.db`):
 * putRecord's INSERT with the same row and search vectors, PG_CHUNK records a statement
 * (its row triggers write the impact postings, the counters and the team outbox as for
 * one record), two statements at a time.
 */
export async function seedPostgres(storage, from, to, makeRecord) {
  const columns = sql.join([
    ...RECORD_COLUMNS.map((c) => sql.ref(c)),
    sql.ref('search'),
    sql.ref('questions_search'),
  ]);
  const insert = (start, end) => {
    const rows = [];
    for (let i = start; i < end; i++) {
      const record = makeRecord(i);
      const row = pgRowFromRecord(record);
      rows.push(
        sql`(${sql.join([
          ...RECORD_COLUMNS.map((c) => sql`${row[c]}`),
          searchVector(record),
          questionsVector(record),
        ])})`,
      );
    }
    return sql`INSERT INTO memory_records (${columns}) VALUES ${sql.join(rows)}`.execute(
      storage.db,
    );
  };
  let next = from;
  const worker = async () => {
    while (next < to) {
      const start = next;
      next = Math.min(next + PG_CHUNK, to);
      await insert(start, next);
    }
  };
  await Promise.all([worker(), worker()]);
}

import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Event, MemoryRecord, MemoryRecordPatch } from '@kiro-learn/schema';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type {
  ColumnWeights,
  EventPage,
  ExtractionCommit,
  ExtractionLogEntry,
  ExtractionLogInput,
  ForgetCounts,
  ForgetScope,
  ListEventsOptions,
  ListRecordsOptions,
  LogQuery,
  Member,
  MissingVectorsOptions,
  MissingVectorsPage,
  NewMember,
  PendingEntry,
  PendingSummary,
  PrunePolicy,
  PutEventOptions,
  PutEventResult,
  RecordPage,
  RecordVector,
  RetrievalLogEntry,
  RetrievalLogInput,
  ScanPage,
  ScanQuery,
  SearchHit,
  SearchOptions,
  SharingStore,
  StorageBackend,
  StorageStats,
  StoredEvent,
  VectorCoverage,
  VectorHit,
  VectorSearchOptions,
} from '../backend.js';
import { StorageError } from '../errors.js';
import {
  DEFAULT_MAX_POSTINGS,
  planQuery,
  type QueryPlanOptions,
  type TermStat,
} from '../query/plan.js';
import { escapeLike, quoteTerm, tokenize } from '../query/tokenize.js';
import { DEFAULT_COLUMN_WEIGHTS } from '../query/weights.js';
import { WriteBatcher } from './batcher.js';
import { Checkpointer } from './checkpointer.js';
import { countPrune, countScope, deletePrune, deleteScope, eraseTraces } from './forget.js';
import { corruptError, isCorruption } from './integrity.js';
import { migrate } from './migrations.js';
import { namespaceToken, recordFromRow, rowFromRecord } from './rows.js';
import { sqliteSharing } from './sharing.js';
import { StatementCache } from './statements.js';
import type { RecordRow, Tables } from './tables.js';
import { SqliteVectors } from './vectors.js';
import { prepareWrites, type WriteStatements } from './writes.js';

/** Options of `openSqliteStorage`. */
export interface SqliteStorageOptions {
  /** Database file; its directory is created with mode 0700 when missing. `:memory:` works. */
  path: string;
  /** How long a write waits for a lock held by another process, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Search tuning: common-term pruning and the postings budget (see planQuery). */
  search?: Omit<QueryPlanOptions, 'totalDocs'>;
  /** Default BM25 column weights (title counts most). */
  weights?: Partial<ColumnWeights>;
  /** The in-memory vector cache behind `searchVectors`. */
  vectors?: VectorCacheOptions;
}

/** Options of the in-memory vector cache behind `searchVectors`. */
export interface VectorCacheOptions {
  /** Most vectors kept in memory over all namespaces; the least recently searched go first. */
  maxCachedVectors?: number;
}

/** The SQLite backend: a StorageBackend plus access for migrations and maintenance. */
export interface SqliteStorage extends StorageBackend {
  parkPending(namespace: string, eventIds: readonly string[]): Promise<number>;
  requeueParked(namespace: string, maxPendingBytes: number): Promise<number>;
  parkedSummary(): Promise<Array<{ namespace: string; count: number; bytes: number }>>;
  /**
   * The kysely instance (for tools and tests; other packages use the interface). Reads
   * only: writes go through the backend's synchronous batcher, which a kysely transaction
   * open across awaits would silently absorb.
   */
  readonly db: Kysely<Tables>;
  readonly path: string;
}

/**
 * Opens (creating when missing) and migrates a kiro-learn SQLite database.
 * Pragmas: WAL, synchronous=NORMAL (a committed write survives a process crash),
 * a busy timeout, foreign keys.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<SqliteStorage> {
  const path = options.path === ':memory:' ? ':memory:' : resolve(options.path);
  if (path !== ':memory:') {
    const dir = dirname(path);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  let sqlite: Database.Database;
  try {
    sqlite = new Database(path);
  } catch (error) {
    if (isCorruption(error)) throw corruptError(path, error);
    throw new StorageError('io', `cannot open the database at ${path}: ${String(error)}`, {
      cause: error,
    });
  }
  let statements: StatementCache;
  try {
    statements = new StatementCache(sqlite);
    if (path !== ':memory:') chmodSync(path, 0o600);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('temp_store = MEMORY');
    // Deleted content is overwritten with zeros: forgotten text leaves the file itself.
    sqlite.pragma('secure_delete = ON');
  } catch (error) {
    sqlite.close();
    if (isCorruption(error)) throw corruptError(path, error);
    throw error;
  }
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: statements.forKysely() }),
  });
  try {
    await migrate(db as unknown as Kysely<unknown>);
    // A scratch index with the same tokenizer: it turns prompt words into index terms.
    sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms USING fts5(
      word, tokenize='porter unicode61 remove_diacritics 2')`);
    sqlite.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms_vocab USING fts5vocab(temp, query_terms, 'instance')",
    );
  } catch (error) {
    await db.destroy();
    const cause = error instanceof StorageError ? (error.cause ?? error) : error;
    if (isCorruption(cause)) throw corruptError(path, cause);
    throw error;
  }
  return new SqliteBackend(db, sqlite, path, options, statements);
}

const now = () => new Date().toISOString();

/** A scan cursor: the last row's key, or 0 for the first page. */
function scanCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d+$/.test(cursor)) throw new StorageError('invalid_cursor', 'invalid cursor');
  return Number(cursor);
}
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

class SqliteBackend implements SqliteStorage {
  readonly db: Kysely<Tables>;
  readonly path: string;
  readonly sharing: SharingStore;
  readonly #sqlite: Database.Database;
  readonly #statements: StatementCache;
  readonly #writes: WriteBatcher;
  readonly #w: WriteStatements;
  readonly #vectors: SqliteVectors;
  readonly #checkpointer: Checkpointer | undefined;
  readonly #weights: ColumnWeights;
  readonly #search: Omit<QueryPlanOptions, 'totalDocs'>;
  #closed = false;
  readonly #maxPostings: number;
  readonly #busyTimeoutMs: number;
  readonly #dfCache = new Map<string, { df: number; atTotal: number }>();
  #dfStatement: Database.Statement | undefined;

  constructor(
    db: Kysely<Tables>,
    sqlite: Database.Database,
    path: string,
    options: SqliteStorageOptions,
    statements: StatementCache,
  ) {
    this.db = db;
    this.#sqlite = sqlite;
    this.#statements = statements;
    this.path = path;
    if (path !== ':memory:') {
      // The worker checkpoints; the writer's own autocheckpoint only bounds the WAL when
      // the worker cannot keep up (or has stopped: then back to SQLite's default).
      this.#checkpointer = new Checkpointer(path, () => {
        if (!this.#closed) sqlite.pragma('wal_autocheckpoint = 1000');
      });
      sqlite.pragma('wal_autocheckpoint = 10000');
    }
    const checkpointer = this.#checkpointer;
    this.#writes = new WriteBatcher(sqlite, checkpointer && (() => checkpointer.committed()));
    this.#w = prepareWrites(sqlite);
    this.#vectors = new SqliteVectors(sqlite, options.vectors);
    this.#weights = { ...DEFAULT_COLUMN_WEIGHTS, ...options.weights };
    this.#search = { ...options.search };
    this.#maxPostings = this.#search.maxPostings ?? DEFAULT_MAX_POSTINGS;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.sharing = sqliteSharing({
      statements,
      writes: this.#writes,
      ensureOpen: () => this.#open(),
    });
  }

  #open(): void {
    if (this.#closed) throw new StorageError('closed', 'the storage is closed');
  }

  // ---- events ----

  async putEvent(event: Event, options: PutEventOptions = {}): Promise<PutEventResult> {
    this.#open();
    const json = JSON.stringify(event);
    const receivedAt = options.receivedAt ?? now();
    const bytes = byteLength(json);
    const w = this.#w;
    return this.#writes.enqueue(() => {
      const inserted = w.insertEvent.get(
        event.event_id,
        event.namespace,
        event.session_id,
        event.kind,
        event.valid_time,
        receivedAt,
        bytes,
        json,
      ) as { seq: number } | undefined;
      if (!inserted) return { stored: false };
      if (options.pending) {
        w.insertPending.run(event.namespace, event.event_id, inserted.seq, bytes, receivedAt);
      }
      return { stored: true };
    });
  }

  async getEvent(eventId: string): Promise<Event | undefined> {
    const json = await this.getEventJson(eventId);
    return json === undefined ? undefined : (JSON.parse(json) as Event);
  }

  async getEventJson(eventId: string): Promise<string | undefined> {
    this.#open();
    const row = await this.db
      .selectFrom('events')
      .select('json')
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row?.json;
  }

  async getEvents(eventIds: readonly string[]): Promise<Event[]> {
    this.#open();
    if (eventIds.length === 0) return [];
    const byId = new Map<string, Event>();
    for (let i = 0; i < eventIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('events')
        .select(['event_id', 'json'])
        .where('event_id', 'in', eventIds.slice(i, i + 500))
        .execute();
      for (const row of rows) byId.set(row.event_id, JSON.parse(row.json) as Event);
    }
    return eventIds.flatMap((id) => byId.get(id) ?? []);
  }

  async listEvents(query: ListEventsOptions): Promise<EventPage> {
    this.#open();
    let q = this.db.selectFrom('events').select(['seq', 'json']);
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    if (query.sessionId !== undefined) q = q.where('session_id', '=', query.sessionId);
    if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
    if (query.cursor !== undefined) {
      if (!/^\d+$/.test(query.cursor)) throw new StorageError('invalid_cursor', 'invalid cursor');
      q = q.where('seq', '<', Number(query.cursor));
    }
    const rows = await q
      .orderBy('seq', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => JSON.parse(row.json) as Event),
      ...(rows.length > query.limit && last ? { nextCursor: String(last.seq) } : {}),
    };
  }

  // ---- memory records ----

  async putRecord(record: MemoryRecord): Promise<void> {
    this.#open();
    const row = rowFromRecord(record);
    await this.#writes.enqueue(() => this.#upsertRecord(row));
  }

  async insertRecord(record: MemoryRecord): Promise<boolean> {
    this.#open();
    const row = rowFromRecord(record);
    // The write queue runs one write at a time, so the check and the insert are one step.
    return this.#writes.enqueue(() => {
      if (this.#w.selectRecord.get(row.record_id) !== undefined) return false;
      this.#w.insertRecord.run(row);
      return true;
    });
  }

  /** Delete then insert: a fresh rid, and the triggers keep FTS and the counts right. */
  #upsertRecord(row: RecordRow): void {
    this.#w.deleteRecord.run(row.record_id);
    this.#w.insertRecord.run(row);
  }

  async getRecord(recordId: string): Promise<MemoryRecord | undefined> {
    this.#open();
    const row = await this.db
      .selectFrom('memory_records')
      .selectAll()
      .where('record_id', '=', recordId)
      .executeTakeFirst();
    return row ? recordFromRow(row) : undefined;
  }

  async getRecords(recordIds: readonly string[]): Promise<MemoryRecord[]> {
    this.#open();
    if (recordIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('memory_records')
      .selectAll()
      .where('record_id', 'in', [...recordIds])
      .execute();
    const byId = new Map(rows.map((row) => [row.record_id, recordFromRow(row)]));
    return recordIds.flatMap((id) => byId.get(id) ?? []);
  }

  async updateRecord(
    recordId: string,
    patch: MemoryRecordPatch,
  ): Promise<MemoryRecord | undefined> {
    this.#open();
    return this.#writes.enqueue(() => {
      const row = this.#w.selectRecord.get(recordId) as RecordRow | undefined;
      if (!row) return undefined;
      const updated: MemoryRecord = { ...recordFromRow(row), ...patch, updated_at: now() };
      this.#w.updateRecord.run({ ...rowFromRecord(updated), target: recordId });
      return updated;
    });
  }

  async deleteRecord(recordId: string): Promise<boolean> {
    this.#open();
    return this.#writes.enqueue(() => this.#w.deleteRecord.run(recordId).changes > 0);
  }

  async listRecords(query: ListRecordsOptions): Promise<RecordPage> {
    this.#open();
    let q = this.db.selectFrom('memory_records');
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    if (query.observationType !== undefined)
      q = q.where('observation_type', '=', query.observationType);
    if (query.strategy !== undefined) q = q.where('strategy', '=', query.strategy);
    if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
    if (query.until !== undefined) q = q.where('created_at', '<', query.until);
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('record_id', 'desc')
      .limit(query.limit)
      .offset(query.offset ?? 0)
      .execute();
    return { items: rows.map(recordFromRow), total: await this.#countRecords(query) };
  }

  async #countRecords(query: ListRecordsOptions): Promise<number> {
    const filtered =
      query.strategy !== undefined || query.since !== undefined || query.until !== undefined;
    if (!filtered && query.observationType !== undefined) {
      let q = this.db.selectFrom('type_counts').select((eb) => eb.fn.sum<number>('n').as('n'));
      q = q.where('observation_type', '=', query.observationType);
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    }
    if (!filtered) {
      let q = this.db
        .selectFrom('namespace_counts')
        .select((eb) => eb.fn.sum<number>('memories').as('n'));
      if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    }
    let q = this.db.selectFrom('memory_records').select((eb) => eb.fn.countAll<number>().as('n'));
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    if (query.observationType !== undefined)
      q = q.where('observation_type', '=', query.observationType);
    if (query.strategy !== undefined) q = q.where('strategy', '=', query.strategy);
    if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
    if (query.until !== undefined) q = q.where('created_at', '<', query.until);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }

  async searchRecords(query: SearchOptions): Promise<SearchHit[]> {
    this.#open();
    const words = tokenize(query.query);
    if (words.length === 0 || query.limit <= 0) return [];
    const totalDocs = Number(
      (
        await this.db
          .selectFrom('namespace_counts')
          .select((eb) => eb.fn.sum<number>('memories').as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const stats = this.#termStats(words, totalDocs);
    const plan = planQuery(stats, { ...this.#search, totalDocs });
    if (plan.match === '') return [];
    try {
      return await this.#ftsSearch(plan.match, plan.words, query);
    } catch {
      return this.#likeSearch(plan.words, query);
    }
  }

  /** Index terms and document frequencies of prompt words, via the scratch FTS table. */
  #termStats(words: readonly string[], totalDocs: number): TermStat[] {
    const insert = this.#statements.prepare(
      'INSERT INTO temp.query_terms (rowid, word) VALUES (?, ?)',
    );
    const stats: TermStat[] = [];
    const load = this.#sqlite.transaction(() => {
      for (const [i, word] of words.entries()) insert.run(i + 1, word);
      const instances = this.#statements
        .prepare('SELECT term, doc FROM temp.query_terms_vocab')
        .all() as Array<{ term: string; doc: number }>;
      this.#sqlite.exec('DELETE FROM temp.query_terms');
      return instances;
    });
    const instances = load() as Array<{ term: string; doc: number }>;
    const seen = new Set<string>();
    for (const { term, doc } of instances) {
      const word = words[doc - 1];
      if (word === undefined || seen.has(term)) continue;
      seen.add(term);
      stats.push({ word, term, df: this.#documentFrequency(word, term, totalDocs) });
    }
    return stats;
  }

  /**
   * How many records contain `word`, counted only up to the postings budget + 1: a word
   * past the budget can never be searched for, and counting a common word exactly (as
   * fts5vocab does, by reading its whole doclist) costs up to 100 ms in a large index.
   * Prompts repeat words, so counts are cached until the index changes size by 5 %.
   */
  #documentFrequency(word: string, term: string, totalDocs: number): number {
    const cached = this.#dfCache.get(term);
    if (cached && Math.abs(totalDocs - cached.atTotal) <= cached.atTotal * 0.05) return cached.df;
    this.#dfStatement ??= this.#statements
      .prepare('SELECT count(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)')
      .pluck();
    let df = 0;
    try {
      df = Number(this.#dfStatement.get(quoteTerm(word), this.#maxPostings + 1));
    } catch {
      // a word FTS5 cannot parse is simply not searched for
    }
    if (this.#dfCache.size >= 50_000) this.#dfCache.clear();
    this.#dfCache.set(term, { df, atTotal: totalDocs });
    return df;
  }

  async #ftsSearch(match: string, words: string[], query: SearchOptions): Promise<SearchHit[]> {
    const w = { ...this.#weights, ...query.weights };
    const rank = sql`bm25(memory_fts, ${w.title}, ${w.summary}, ${w.facts}, ${w.concepts}, ${w.files}, 0)`;
    // Query terms may only hit content columns; the namespace token only its own column.
    const content = `{title summary facts concepts files} : (${match})`;
    const scoped =
      query.namespace === undefined
        ? content
        : `ns_token : ${quoteTerm(namespaceToken(query.namespace))} AND ${content}`;
    const filtered = query.observationType !== undefined || query.file !== undefined;
    // Without extra filters, rank inside FTS5 and join only the top hits to their rows.
    const { rows } = filtered
      ? await sql<RecordRow & { score: number }>`
          SELECT r.*, ${rank} AS score FROM memory_fts JOIN memory_records r ON r.rid = memory_fts.rowid
          WHERE memory_fts MATCH ${scoped} ${this.#filters(query)}
          ORDER BY score, r.record_id DESC LIMIT ${query.limit}`.execute(this.db)
      : await sql<RecordRow & { score: number }>`
          SELECT r.*, f.score FROM (
            SELECT rowid, ${rank} AS score FROM memory_fts WHERE memory_fts MATCH ${scoped}
            ORDER BY score LIMIT ${query.limit * 2 + 10}
          ) f JOIN memory_records r ON r.rid = f.rowid
          WHERE 1 ${this.#filters(query)}
          ORDER BY f.score, r.record_id DESC LIMIT ${query.limit}`.execute(this.db);
    return rows.map(({ score, ...row }) => ({
      record: recordFromRow(row),
      score: -score,
      terms: words,
      via: 'fts' as const,
    }));
  }

  async #likeSearch(words: string[], query: SearchOptions): Promise<SearchHit[]> {
    const columns = ['title', 'summary', 'facts', 'concepts', 'files'];
    const matched = words.map(
      (word) =>
        sql`(${sql.join(
          columns.map((c) => sql`${sql.ref(`r.${c}`)} LIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`),
          sql` OR `,
        )})`,
    );
    const score = sql`(${sql.join(matched, sql` + `)})`;
    const { rows } = await sql<RecordRow & { score: number }>`
      SELECT * FROM (SELECT r.*, ${score} AS score FROM memory_records r WHERE 1 ${this.#filters(query)})
      WHERE score > 0 ORDER BY score DESC, created_at DESC LIMIT ${query.limit}`.execute(this.db);
    return rows.map(({ score: s, ...row }) => ({
      record: recordFromRow(row),
      score: Number(s),
      terms: words,
      via: 'like' as const,
    }));
  }

  /** Namespace (exact equality), type and file filters, as `AND …` over `memory_records r`. */
  #filters(query: SearchOptions) {
    const parts = [];
    if (query.namespace !== undefined) parts.push(sql`AND r.namespace = ${query.namespace}`);
    if (query.observationType !== undefined)
      parts.push(sql`AND r.observation_type = ${query.observationType}`);
    if (query.file !== undefined) {
      const suffix = `%/${escapeLike(query.file.replace(/^\/+/, ''))}`;
      parts.push(
        sql`AND EXISTS (SELECT 1 FROM json_each(r.files) WHERE value = ${query.file} OR value LIKE ${suffix} ESCAPE '\\')`,
      );
    }
    return sql.join(parts, sql` `);
  }

  // ---- record vectors ----

  async putVectors(modelId: string, vectors: readonly RecordVector[]): Promise<number> {
    this.#open();
    if (vectors.length === 0) return 0;
    return this.#writes.enqueue(() => this.#vectors.put(modelId, vectors));
  }

  async searchVectors(query: VectorSearchOptions): Promise<VectorHit[]> {
    this.#open();
    return this.#vectors.search(query);
  }

  async recordsWithoutVector(query: MissingVectorsOptions): Promise<MissingVectorsPage> {
    this.#open();
    return this.#vectors.missing(query);
  }

  async vectorCoverage(modelId: string, namespace?: string): Promise<VectorCoverage> {
    this.#open();
    return this.#vectors.coverage(modelId, namespace);
  }

  async deleteVectorsExcept(modelId: string): Promise<number> {
    this.#open();
    return this.#writes.enqueue(() => this.#vectors.deleteExcept(modelId));
  }

  // ---- pending buffer ----

  async listPending(namespace: string, options: { limit?: number } = {}): Promise<PendingEntry[]> {
    this.#open();
    const rows = await this.db
      .selectFrom('pending')
      .select(['namespace', 'event_id', 'bytes', 'appended_at'])
      .where('namespace', '=', namespace)
      .orderBy('seq')
      .limit(options.limit ?? 1_000_000)
      .execute();
    return rows.map((row) => ({
      namespace: row.namespace,
      eventId: row.event_id,
      bytes: row.bytes,
      appendedAt: row.appended_at,
    }));
  }

  async pendingSummary(): Promise<PendingSummary[]> {
    this.#open();
    const rows = await this.db
      .selectFrom('pending')
      .select((eb) => [
        'namespace',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('bytes').as('bytes'),
        eb.fn.min<string>('appended_at').as('oldest'),
        eb.fn.max<string>('appended_at').as('newest'),
      ])
      .groupBy('namespace')
      .orderBy('namespace')
      .execute();
    return rows.map((row) => ({
      namespace: row.namespace,
      count: Number(row.count),
      bytes: Number(row.bytes),
      oldestAt: row.oldest,
      newestAt: row.newest,
    }));
  }

  async removePending(namespace: string, eventIds: readonly string[]): Promise<number> {
    this.#open();
    return this.#writes.enqueue(() => this.#removePending(namespace, eventIds));
  }

  #removePending(namespace: string, eventIds: readonly string[]): number {
    let removed = 0;
    for (const id of eventIds) removed += this.#w.deletePending.run(namespace, id).changes;
    return removed;
  }

  async commitExtraction(commit: ExtractionCommit): Promise<void> {
    this.#open();
    const rows = commit.records.map(rowFromRecord);
    const ids = [...new Set(commit.eventIds)];
    await this.#writes.enqueue(() => {
      // Conditional on the batch still being pending: throwing rolls the records back, so
      // a batch another run (or another process) already committed is never stored twice.
      if (this.#removePending(commit.namespace, ids) !== ids.length) {
        throw new StorageError(
          'stale_batch',
          `the batch's pending entries of ${commit.namespace} are gone: another run extracted them`,
        );
      }
      for (const row of rows) this.#upsertRecord(row);
    });
  }

  async parkPending(namespace: string, eventIds: readonly string[]): Promise<number> {
    this.#open();
    const w = this.#w;
    return this.#writes.enqueue(() => {
      let parked = 0;
      for (const id of eventIds) {
        if (w.parkPending.run(namespace, id).changes === 0) continue;
        w.deletePending.run(namespace, id);
        parked++;
      }
      return parked;
    });
  }

  async requeueParked(namespace: string, maxPendingBytes: number): Promise<number> {
    this.#open();
    const w = this.#w;
    const pendingBytes = this.#sqlite
      .prepare('SELECT coalesce(sum(bytes), 0) FROM pending WHERE namespace = ?')
      .pluck();
    return this.#writes.enqueue(() => {
      let bytes = Number(pendingBytes.get(namespace));
      let moved = 0;
      for (;;) {
        const rows = w.unparkOldest.all(namespace) as Array<{
          event_id: string;
          seq: number;
          bytes: number;
          appended_at: string;
        }>;
        for (const row of rows) {
          // At least one entry moves into an empty buffer, however large.
          if (bytes > 0 && bytes + row.bytes > maxPendingBytes) return moved;
          w.insertPending.run(namespace, row.event_id, row.seq, row.bytes, row.appended_at);
          w.deleteParked.run(namespace, row.event_id);
          bytes += row.bytes;
          moved++;
        }
        if (rows.length === 0) return moved;
      }
    });
  }

  async parkedSummary(): Promise<Array<{ namespace: string; count: number; bytes: number }>> {
    this.#open();
    const rows = await this.db
      .selectFrom('parked')
      .select((eb) => [
        'namespace',
        eb.fn.countAll<number>().as('count'),
        eb.fn.sum<number>('bytes').as('bytes'),
      ])
      .groupBy('namespace')
      .orderBy('namespace')
      .execute();
    return rows.map((row) => ({
      namespace: row.namespace,
      count: Number(row.count),
      bytes: Number(row.bytes),
    }));
  }

  // ---- claims: one process owns a SQLite file, so claims live in memory ----

  readonly #claims = new Map<string, { owner: string; until: number }>();

  async claimExtraction(namespace: string, owner: string, ttlMs: number): Promise<boolean> {
    this.#open();
    const claim = this.#claims.get(namespace);
    if (claim && claim.owner !== owner && claim.until > Date.now()) return false;
    this.#claims.set(namespace, { owner, until: Date.now() + ttlMs });
    return true;
  }

  async releaseExtraction(namespace: string, owner: string): Promise<void> {
    this.#open();
    if (this.#claims.get(namespace)?.owner === owner) this.#claims.delete(namespace);
  }

  // ---- members ----

  async addMember(member: NewMember): Promise<Member> {
    this.#open();
    const added: Member = { name: member.name, role: member.role, createdAt: now() };
    return this.#writes.enqueue(() => {
      const taken = this.#statements
        .prepare('SELECT 1 FROM members WHERE name = ? OR token_hash = ?')
        .get(member.name, member.tokenHash);
      if (taken) throw new StorageError('conflict', `a member named ${member.name} exists`);
      this.#statements
        .prepare('INSERT INTO members (name, role, token_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(added.name, added.role, member.tokenHash, added.createdAt);
      return added;
    });
  }

  async listMembers(): Promise<Member[]> {
    this.#open();
    const rows = await this.db
      .selectFrom('members')
      .select(['name', 'role', 'created_at'])
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      role: row.role as Member['role'],
      createdAt: row.created_at,
    }));
  }

  async removeMember(name: string): Promise<boolean> {
    this.#open();
    return this.#writes.enqueue(
      () => this.#statements.prepare('DELETE FROM members WHERE name = ?').run(name).changes > 0,
    );
  }

  async findMember(tokenHash: string): Promise<Member | undefined> {
    this.#open();
    const row = await this.db
      .selectFrom('members')
      .select(['name', 'role', 'created_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row && { name: row.name, role: row.role as Member['role'], createdAt: row.created_at };
  }

  // ---- logs ----

  async logRetrieval(entry: RetrievalLogInput): Promise<void> {
    this.#open();
    const row = {
      namespace: entry.namespace,
      session_id: entry.sessionId ?? null,
      event_id: entry.eventId ?? null,
      query: entry.query.slice(0, 4096),
      record_ids: JSON.stringify(entry.recordIds),
      scores: JSON.stringify(entry.scores),
      latency_ms: entry.latencyMs,
      timed_out: entry.timedOut ? 1 : 0,
      budget_cut: entry.budgetCut ? 1 : 0,
      error: entry.error ?? null,
      created_at: now(),
    };
    await this.#writes.enqueue(() => this.#w.insertRetrieval.run(row));
  }

  async listRetrievals(query: LogQuery & { sessionId?: string }): Promise<RetrievalLogEntry[]> {
    this.#open();
    let q = this.db.selectFrom('retrieval_log').selectAll();
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    if (query.sessionId !== undefined) q = q.where('session_id', '=', query.sessionId);
    if (query.afterId !== undefined) q = q.where('id', '>', query.afterId);
    const rows = await q.orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({
      id: row.id!,
      namespace: row.namespace,
      ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
      ...(row.event_id !== null ? { eventId: row.event_id } : {}),
      query: row.query,
      recordIds: JSON.parse(row.record_ids) as string[],
      scores: JSON.parse(row.scores) as number[],
      latencyMs: row.latency_ms,
      timedOut: row.timed_out === 1,
      budgetCut: row.budget_cut === 1,
      ...(row.error !== null ? { error: row.error } : {}),
      createdAt: row.created_at,
    }));
  }

  async logExtraction(entry: ExtractionLogInput): Promise<void> {
    this.#open();
    const row = {
      namespace: entry.namespace,
      extractor: entry.extractor,
      status: entry.status,
      batch_size: entry.batchSize,
      records: entry.records,
      attempts: entry.attempts,
      duration_ms: entry.durationMs,
      error: entry.error ?? null,
      started_at: entry.startedAt,
    };
    await this.#writes.enqueue(() => this.#w.insertExtraction.run(row));
  }

  async listExtractions(query: LogQuery): Promise<ExtractionLogEntry[]> {
    this.#open();
    let q = this.db.selectFrom('extraction_log').selectAll();
    if (query.namespace !== undefined) q = q.where('namespace', '=', query.namespace);
    if (query.afterId !== undefined) q = q.where('id', '>', query.afterId);
    const rows = await q.orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((row) => ({
      id: row.id!,
      namespace: row.namespace,
      extractor: row.extractor,
      status: row.status as ExtractionLogEntry['status'],
      batchSize: row.batch_size,
      records: row.records,
      attempts: row.attempts,
      durationMs: row.duration_ms,
      ...(row.error !== null ? { error: row.error } : {}),
      startedAt: row.started_at,
    }));
  }

  // ---- your data ----

  async countForget(scope: ForgetScope): Promise<ForgetCounts> {
    this.#open();
    return countScope(this.#sqlite, scope);
  }

  async forget(scope: ForgetScope): Promise<ForgetCounts> {
    this.#open();
    const counts = await this.#writes.enqueue(() => deleteScope(this.#sqlite, scope));
    this.#dfCache.clear();
    await this.#erase(counts.records > 0);
    return counts;
  }

  async #erase(records: boolean): Promise<void> {
    if (this.path === ':memory:') return;
    if (!(await eraseTraces(this.#sqlite, records, this.#busyTimeoutMs))) {
      throw new StorageError(
        'io',
        'the data is deleted, but the write-ahead log could not be truncated within a minute (another process holds the database open?): its old pages go at the next checkpoint; run the command again to retry now',
      );
    }
  }

  async pruneEvents(policy: PrunePolicy): Promise<ForgetCounts> {
    this.#open();
    if (policy.dryRun) return countPrune(this.#sqlite, policy);
    const counts = await this.#writes.enqueue(() => deletePrune(this.#sqlite, policy));
    if (counts.events > 0) await this.#erase(false);
    return counts;
  }

  async scanEvents(query: ScanQuery): Promise<ScanPage<StoredEvent>> {
    this.#open();
    const after = scanCursor(query.cursor);
    const rows = this.#sqlite
      .prepare(
        `SELECT seq, received_at, json FROM events WHERE seq > ?${query.namespace === undefined ? '' : ' AND namespace = ?'}
         ORDER BY seq LIMIT ?`,
      )
      .all(
        ...[after, ...(query.namespace === undefined ? [] : [query.namespace]), query.limit],
      ) as Array<{ seq: number; received_at: string; json: string }>;
    const last = rows.at(-1);
    return {
      items: rows.map((row) => ({ json: row.json, receivedAt: row.received_at })),
      ...(rows.length === query.limit && last ? { nextCursor: String(last.seq) } : {}),
    };
  }

  async scanRecords(query: ScanQuery): Promise<ScanPage<MemoryRecord>> {
    this.#open();
    const after = scanCursor(query.cursor);
    const rows = this.#sqlite
      .prepare(
        `SELECT * FROM memory_records WHERE rid > ?${query.namespace === undefined ? '' : ' AND namespace = ?'}
         ORDER BY rid LIMIT ?`,
      )
      .all(
        ...[after, ...(query.namespace === undefined ? [] : [query.namespace]), query.limit],
      ) as RecordRow[];
    const last = rows.at(-1);
    return {
      items: rows.map(recordFromRow),
      ...(rows.length === query.limit && last ? { nextCursor: String(last.rid) } : {}),
    };
  }

  async backup(path: string): Promise<{ bytes: number }> {
    this.#open();
    if (this.path === ':memory:') {
      throw new StorageError('unsupported', 'an in-memory database has no file to back up');
    }
    const target = resolve(path);
    const dir = dirname(target);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Into a temporary name first: a crash mid-copy never leaves a half backup behind
    // under the real name. SQLite's online backup copies a few pages per step and starts
    // over if another connection writes meanwhile; this connection's writes it follows.
    const partial = `${target}.partial`;
    rmSync(partial, { force: true });
    try {
      await this.#sqlite.backup(partial, { progress: () => 1000 });
      chmodSync(partial, 0o600);
      renameSync(partial, target);
    } catch (error) {
      rmSync(partial, { force: true });
      throw new StorageError('io', `cannot write the backup ${target}: ${String(error)}`, {
        cause: error,
      });
    }
    return { bytes: statSync(target).size };
  }

  // ---- totals ----

  async stats(namespace?: string): Promise<StorageStats> {
    this.#open();
    let projectsQ = this.db.selectFrom('namespace_counts').selectAll();
    let kindsQ = this.db
      .selectFrom('kind_counts')
      .select((eb) => ['kind', eb.fn.sum<number>('n').as('n')])
      .groupBy('kind');
    let typesQ = this.db
      .selectFrom('type_counts')
      .select((eb) => ['observation_type', eb.fn.sum<number>('n').as('n')])
      .groupBy('observation_type');
    if (namespace !== undefined) {
      projectsQ = projectsQ.where('namespace', '=', namespace);
      kindsQ = kindsQ.where('namespace', '=', namespace);
      typesQ = typesQ.where('namespace', '=', namespace);
    }
    const [projects, kinds, types] = await Promise.all([
      projectsQ.orderBy('namespace').execute(),
      kindsQ.execute(),
      typesQ.execute(),
    ]);
    const byKind = Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]));
    const byType = Object.fromEntries(
      types.filter((t) => Number(t.n) > 0).map((t) => [t.observation_type, Number(t.n)]),
    );
    const sum = (values: Record<string, number>) =>
      Object.values(values).reduce((a, b) => a + b, 0);
    return {
      events: { total: sum(byKind), byKind },
      memories: { total: sum(byType), byType },
      projects: projects.map((p) => ({
        namespace: p.namespace,
        events: p.events,
        memories: p.memories,
        ...(p.last_event_at !== null ? { lastEventAt: p.last_event_at } : {}),
      })),
    };
  }

  async sizeBytes(): Promise<number> {
    if (this.path === ':memory:') return 0;
    let total = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        total += statSync(this.path + suffix).size;
      } catch {
        // no such file: WAL not created yet
      }
    }
    return total;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    // The worker goes first: closing the last connection checkpoints everything anyway.
    await this.#checkpointer?.close();
    // Let queued writes commit first: everything acknowledged must be on disk.
    await this.#writes.enqueue(() => undefined);
    this.#closed = true;
    await this.db.destroy();
  }
}

import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { ColumnWeights, StorageBackend } from '../backend.js';
import { StorageError } from '../errors.js';
import { DEFAULT_MAX_POSTINGS, type QueryPlanOptions } from '../query/plan.js';
import { DEFAULT_COLUMN_WEIGHTS } from '../query/weights.js';
import { WriteBatcher } from './batcher.js';
import { sqliteBuffer } from './buffer.js';
import { Checkpointer } from './checkpointer.js';
import { sqliteClaims } from './claims.js';
import type { SqliteContext } from './context.js';
import { sqliteData } from './data.js';
import { sqliteEvents } from './events.js';
import { createImpactScratch, drainImpacts, impactsPending, StopTerms } from './impacts.js';
import { corruptError, isCorruption } from './integrity.js';
import { sqliteLogs } from './logs.js';
import { sqliteMembers } from './members.js';
import { migrate } from './migrations.js';
import { sqliteRecords } from './records.js';
import { createQueryTermTables, sqliteSearch, type TermCounts } from './search.js';
import { sqliteSessionReads } from './session-reads.js';
import { sqliteSharing } from './sharing.js';
import { StatementCache } from './statements.js';
import { sqliteStats } from './stats.js';
import type { Tables } from './tables.js';
import { sqliteTeam } from './team.js';
import type { VectorCacheOptions } from './vector-options.js';
import { sqliteVectors } from './vectors.js';
import { prepareWrites } from './writes.js';

export type { VectorCacheOptions } from './vector-options.js';

/** Options of `openSqliteStorage`. */
export interface SqliteStorageOptions {
  /** Database file; its directory is created with mode 0700 when missing. `:memory:` works. */
  path: string;
  /** How long a write waits for a lock held by another process, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Search tuning: common-term pruning and the postings budget (see planQuery). */
  search?: Omit<QueryPlanOptions, 'totalDocs'>;
  /**
   * Lexical searches whose kept words hold more than this many postings read the
   * impact-ordered table (top-k with early exit) instead of scoring every hit in FTS5
   * (default 2,000; `Infinity`: never). The scores are the same either way.
   */
  impactMinPostings?: number;
  /** Default BM25 column weights (title counts most). */
  weights?: Partial<ColumnWeights>;
  /** The in-memory vector cache behind `searchVectors`. */
  vectors?: VectorCacheOptions;
  /**
   * Opens an existing, migrated database for reading only: a second connection beside the
   * writer's (openSqliteReader's worker thread). No migration, no checkpointing; writes fail.
   */
  readOnly?: boolean;
}

/** The SQLite backend: a StorageBackend plus access for migrations and maintenance. */
export interface SqliteStorage extends StorageBackend {
  parkPending(namespace: string, eventIds: readonly string[]): Promise<number>;
  requeueParked(namespace: string, maxPendingBytes: number): Promise<number>;
  parkedSummary(): Promise<Array<{ namespace: string; count: number; bytes: number }>>;
  /**
   * Records waiting to enter the impact-ordered search table (after the upgrade that adds
   * it, or a bulk write): until 0, searches that would use it score in FTS5 instead.
   */
  impactBacklog(): Promise<number>;
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
    sqlite = new Database(path, options.readOnly ? { readonly: true, fileMustExist: true } : {});
  } catch (error) {
    if (isCorruption(error)) throw corruptError(path, error);
    throw new StorageError('io', `cannot open the database at ${path}: ${String(error)}`, {
      cause: error,
    });
  }
  let statements: StatementCache;
  try {
    statements = new StatementCache(sqlite);
    if (!options.readOnly) {
      if (path !== ':memory:') chmodSync(path, 0o600);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
    }
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
    if (!options.readOnly) await migrate(db as unknown as Kysely<unknown>);
    createQueryTermTables(sqlite);
    if (!options.readOnly) createImpactScratch(sqlite);
  } catch (error) {
    await db.destroy();
    const cause = error instanceof StorageError ? (error.cause ?? error) : error;
    if (isCorruption(cause)) throw corruptError(path, cause);
    throw error;
  }
  return compose(db, sqlite, path, options, statements);
}

/**
 * The backend: one module per aggregate over a shared context. Adding an aggregate is a
 * module exporting `sqliteX(ctx)` and one line here.
 */
function compose(
  db: Kysely<Tables>,
  sqlite: Database.Database,
  path: string,
  options: SqliteStorageOptions,
  statements: StatementCache,
): SqliteStorage {
  let closed = false;
  let checkpointer: Checkpointer | undefined;
  if (path !== ':memory:' && !options.readOnly) {
    // The worker checkpoints; the writer's own autocheckpoint only bounds the WAL when
    // the worker cannot keep up (or has stopped: then back to SQLite's default).
    checkpointer = new Checkpointer(path, () => {
      if (!closed) sqlite.pragma('wal_autocheckpoint = 1000');
    });
    sqlite.pragma('wal_autocheckpoint = 10000');
  }
  const worker = checkpointer;
  // Records queued for the impact table are tokenised inside write transactions: a few in
  // every batch (a new record is searchable the fast way once committed), and the rest
  // (the backfill after the migration, writes made outside the batcher) in small batches
  // of their own between other work. A failure leaves them queued: search falls back to FTS5.
  const stop = new StopTerms(options.search?.maxPostings ?? DEFAULT_MAX_POSTINGS);
  const drain = sqlite.transaction((max: number) => drainImpacts(statements, max, stop));
  const drainSome = (max: number) => {
    // Nothing queued (nearly every write): no savepoint, no join.
    if (!impactsPending(statements)) return 0;
    try {
      return drain(max);
    } catch {
      stop.reset();
      return 0;
    }
  };
  let drainTimer: NodeJS.Timeout | undefined;
  const scheduleDrain = () => {
    if (drainTimer || closed || options.readOnly) return;
    drainTimer = setTimeout(() => {
      void writes
        .enqueue(() => {
          drainSome(64);
          return impactsPending(statements);
        })
        .then(
          (more) => {
            drainTimer = undefined;
            if (more) scheduleDrain();
          },
          () => {
            drainTimer = undefined;
          },
        );
    }, 5);
    drainTimer.unref();
  };
  const writes = new WriteBatcher(
    sqlite,
    worker && (() => worker.committed()),
    256,
    options.readOnly
      ? undefined
      : () => {
          if (drainSome(32) === 32) setImmediate(scheduleDrain);
        },
  );
  const ctx: SqliteContext = {
    db,
    sqlite,
    statements,
    writes,
    w: prepareWrites(sqlite),
    path,
    ensureOpen() {
      if (closed) throw new StorageError('closed', 'the storage is closed');
    },
  };
  const plan = { ...options.search };
  const termCounts: TermCounts = new Map();
  const records = sqliteRecords(ctx);
  const methods: Omit<SqliteStorage, 'db' | 'path' | 'close'> = {
    ...sqliteEvents(ctx),
    ...records,
    ...sqliteSessionReads(ctx, records),
    ...sqliteSearch(ctx, {
      weights: { ...DEFAULT_COLUMN_WEIGHTS, ...options.weights },
      plan,
      maxPostings: plan.maxPostings ?? DEFAULT_MAX_POSTINGS,
      termCounts,
      impactMinPostings: options.impactMinPostings ?? 2000,
      impactStopped: (term) =>
        statements.prepare('SELECT 1 FROM impact_stopped WHERE term = ?').get(term) !== undefined,
      onImpactsPending: scheduleDrain,
    }),
    ...sqliteVectors(ctx, options.vectors),
    ...sqliteBuffer(ctx),
    ...sqliteClaims(ctx),
    ...sqliteMembers(ctx),
    ...sqliteTeam(ctx),
    ...sqliteLogs(ctx),
    ...sqliteData(ctx, {
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
      afterForget: () => termCounts.clear(),
    }),
    ...sqliteStats(ctx),
    sharing: sqliteSharing(ctx),
    async impactBacklog() {
      ctx.ensureOpen();
      return Number(statements.prepare('SELECT count(*) FROM impact_queue').pluck().get());
    },
  };
  if (!options.readOnly && impactsPending(statements)) scheduleDrain();
  return {
    ...methods,
    db,
    path,
    async close() {
      if (closed) return;
      clearTimeout(drainTimer);
      // The worker goes first: closing the last connection checkpoints everything anyway.
      await checkpointer?.close();
      // Let queued writes commit first: everything acknowledged must be on disk.
      await writes.enqueue(() => undefined);
      closed = true;
      await db.destroy();
    },
  };
}

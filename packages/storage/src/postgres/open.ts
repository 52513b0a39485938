import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { ColumnWeights, StorageBackend } from '../backend.js';
import { StorageError } from '../errors.js';
import { DEFAULT_MAX_POSTINGS, type QueryPlanOptions } from '../query/plan.js';
import { DEFAULT_COLUMN_WEIGHTS } from '../query/weights.js';
import { pgBuffer } from './buffer.js';
import { pgClaims } from './claims.js';
import { type PgContext, translateError } from './context.js';
import { pgCounterCompactor } from './counters.js';
import { pgData } from './data.js';
import { PgEventBatcher } from './event-batcher.js';
import { pgEvents } from './events.js';
import { type ImpactBackfillOptions, startImpactBackfill } from './impact-backfill.js';
import { startImpactCountFolder } from './impact-counts.js';
import { pgLogs } from './logs.js';
import { pgMembers } from './members.js';
import { migratePostgres } from './migrations.js';
import { OwnConnection } from './own-connection.js';
import { pgRecords } from './records.js';
import { pgSearch } from './search.js';
import { pgSessionReads } from './session-reads.js';
import { pgSharing } from './sharing.js';
import { pgStats } from './stats.js';
import type { PgTables } from './tables.js';
import { pgTeam } from './team.js';
import { DEFAULT_TERM_STATS_MIN_RECORDS, pgTermStats } from './term-stats.js';
import { pgVectors } from './vectors.js';
import { eventsChannel, listenerName, listenerPrefix, watchEvents } from './watch.js';

/** Options of `openPostgresStorage`. */
export interface PostgresStorageOptions {
  /** Connection URL, `postgres://user:password@host:port/database` (node-postgres syntax). */
  url: string;
  /** Schema holding kiro-learn's tables, created when missing (default `public`). */
  schema?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long a query waits for a free connection before failing `unavailable`, in ms (default 2000). */
  acquireTimeoutMs?: number;
  /** A statement running longer is cancelled by the server and fails `timeout`, in ms (default 10000). */
  statementTimeoutMs?: number;
  /** Search tuning: common-term pruning and the postings budget (see planQuery). */
  search?: Omit<QueryPlanOptions, 'totalDocs'>;
  /** Default column weights of search (title counts most). */
  weights?: Partial<ColumnWeights>;
  /**
   * From this many records on, search takes common words' document frequencies from
   * ANALYZE's statistics instead of counting them through the index, and keeps those
   * statistics fresh itself (default 10,000).
   */
  termStatsMinRecords?: number;
  /**
   * Rank searches through the impact-ordered postings (default true); false ranks every
   * matching record instead (same answers, slower: for comparison).
   */
  impactSearch?: boolean;
  /**
   * Records stored before the upgrade that added the impact-ordered postings are indexed
   * in the background, a batch per short transaction, by every backend that opens the
   * database (they share the work). Batch size and pause; false leaves the work to other
   * backends. Until none is left (`impactBacklog()`), searches rank every matching record.
   */
  impactBackfill?: ImpactBackfillOptions | false;
}

/** What `health()` reports (doctor and status print it). */
export interface PostgresHealth {
  /** `server_version` of the server, e.g. `18.4`. */
  version: string;
  /** One round trip (`SELECT 1`) in ms. */
  latencyMs: number;
  /** The connection pool: size limit, open connections, idle ones, queries waiting for one. */
  pool: { max: number; total: number; idle: number; waiting: number };
}

/** The PostgreSQL backend: a StorageBackend plus access for tools and health checks. */
export interface PostgresStorage extends StorageBackend {
  /** The kysely instance (for tools and tests; other packages use the interface). */
  readonly db: Kysely<PgTables>;
  /** The schema holding the tables. */
  readonly schema: string;
  /** Server version, latency and pool state; throws StorageError `unavailable` when down. */
  health(): Promise<PostgresHealth>;
  /**
   * Folds the counters' delta rows now (the backend also does it by itself, every few
   * thousand events and every 30 s). Resolves false when another backend was compacting.
   */
  compactCounters(): Promise<boolean>;
  /**
   * Records waiting to enter the impact-ordered postings (stored before the upgrade that
   * adds them, indexed in the background): until 0, searches rank every matching record.
   */
  impactBacklog(): Promise<number>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Connects to PostgreSQL, creates the schema when missing and migrates it (several
 * collectors may start at once: an advisory lock makes them migrate one at a time).
 * Driver errors surface as StorageError `unavailable` (server down, restarting, no free
 * connection within `acquireTimeoutMs`) or `timeout` (statement timeout).
 */
export async function openPostgresStorage(
  options: PostgresStorageOptions,
): Promise<PostgresStorage> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new StorageError(
      'invalid_option',
      `schema must be lower-case letters, digits and _ (got ${JSON.stringify(schema)})`,
    );
  }
  const statementTimeoutMs = Math.max(1, Math.trunc(options.statementTimeoutMs ?? 10_000));
  const max = Math.max(1, Math.trunc(options.poolSize ?? 10));
  const acquireTimeoutMs = Math.max(1, Math.trunc(options.acquireTimeoutMs ?? 2000));
  // Names this backend's connections: event notices carry it, so watchEvents can leave
  // out the events this backend stored itself.
  const instance = `kiro-learn/${randomUUID()}`;
  // What every request connection shares (the pools' and the event batcher's own).
  const connection = {
    connectionString: options.url,
    connectionTimeoutMillis: acquireTimeoutMs,
    application_name: instance,
  };
  const session = `-c search_path=${schema} -c statement_timeout=${statementTimeoutMs}`;
  const pool = new pg.Pool({ ...connection, max, idleTimeoutMillis: 30_000, options: session });
  // An idle connection that breaks (server restart) must not crash the process: the next
  // query gets a fresh connection, or fails `unavailable`.
  pool.on('error', () => undefined);
  // The pool listens for errors of idle connections only: one that breaks while checked
  // out (between a transaction's statements) would otherwise throw from the socket. Its
  // query fails on its own, and the pool drops the broken connection on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Searches get a pool of their own (as many connections again: with half as many, at 250
  // developers prompts waited 209 ms (p50) for a search connection while the shared pool's
  // waits were under 1 ms and PostgreSQL's backends sat idle): a prompt's search
  // never waits for a connection behind the inserts of a busy server, and every search
  // connection has `enable_seqscan` off for good (see pgSearch) instead of a transaction
  // per statement to set it. JIT off: a scan that has no index to take instead (the
  // record count's small table) still costs `disable_cost` (10^10) in the plan, past every
  // JIT threshold, and compiling it took 1.4 s of a 25 ms statement.
  const searchPool = new pg.Pool({
    ...connection,
    max,
    idleTimeoutMillis: 30_000,
    options: `${session} -c enable_seqscan=off -c jit=off`,
  });
  searchPool.on('error', () => undefined);
  searchPool.on('connect', (client) => client.on('error', () => undefined));
  // Migrating gets a connection of its own: the pool's acquire timeout is meant for busy
  // requests, not for the first connect of a start-up.
  const migrator = new pg.Client({
    connectionString: options.url,
    connectionTimeoutMillis: 10_000,
    application_name: instance,
  });
  migrator.on('error', () => undefined);
  try {
    await migrator.connect();
    await migratePostgres(migrator, schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    await searchPool.end().catch(() => undefined);
    throw translateError(error);
  } finally {
    await migrator.end().catch(() => undefined);
  }
  const db = new Kysely<PgTables>({ dialect: new PostgresDialect({ pool }) });
  const searchDb = new Kysely<PgTables>({ dialect: new PostgresDialect({ pool: searchPool }) });
  let closed = false;
  const ctx: PgContext = {
    db,
    ensureOpen() {
      if (closed) throw new StorageError('closed', 'the storage is closed');
    },
  };
  const weights = { ...DEFAULT_COLUMN_WEIGHTS, ...options.weights };
  const plan = { ...options.search };
  const termStatsMinRecords = options.termStatsMinRecords ?? DEFAULT_TERM_STATS_MIN_RECORDS;
  const termStats = pgTermStats(ctx, { minRecords: termStatsMinRecords });
  const counters = pgCounterCompactor(ctx);
  const backfill = startImpactBackfill(
    db,
    searchDb,
    options.impactBackfill ?? {},
    () => pool.waitingCount > 0,
  );
  const countFolder = startImpactCountFolder(db);
  // The event batcher sends one statement at a time, on a connection of its own: through
  // the pool each paid an acquire and a release (listeners, an idle timer).
  const insertConnection = new OwnConnection({ ...connection, options: session });
  const events = new PgEventBatcher(insertConnection, pool, {
    maxWaitMs: acquireTimeoutMs,
    onStored: (n) => counters.written(n),
    announce: {
      channel: eventsChannel(schema),
      origin: instance,
      listenerPrefix: listenerPrefix(schema),
      ownListener: listenerName(schema, instance),
    },
  });
  const methods = {
    ...pgEvents(ctx, events),
    ...pgRecords(ctx),
    ...pgSessionReads(ctx),
    ...pgSearch(ctx, {
      weights,
      plan,
      maxPostings: plan.maxPostings ?? DEFAULT_MAX_POSTINGS,
      termStats,
      searchDb,
      searchPool,
      cachedTotalFrom: termStatsMinRecords,
      impacts: options.impactSearch ?? true,
      impactsReady: backfill.ready,
    }),
    ...pgBuffer(ctx),
    ...pgClaims(ctx),
    ...pgLogs(ctx),
    ...pgMembers(ctx),
    ...pgTeam(ctx),
    ...pgStats(ctx),
    ...pgVectors(ctx),
    ...pgData(ctx),
  };
  const watchers = new Set<() => Promise<void>>();
  const storage: PostgresStorage = {
    ...guarded(methods),
    sharing: guarded(pgSharing(ctx)),
    db,
    schema,
    async compactCounters() {
      ctx.ensureOpen();
      try {
        return await counters.compact();
      } catch (error) {
        throw translateError(error);
      }
    },
    async watchEvents(listener) {
      ctx.ensureOpen();
      let stop: () => Promise<void>;
      try {
        stop = await watchEvents(options.url, schema, instance, listener);
      } catch (error) {
        throw translateError(error);
      }
      const unwatch = async () => {
        watchers.delete(unwatch);
        await stop();
      };
      watchers.add(unwatch);
      return unwatch;
    },
    async impactBacklog() {
      ctx.ensureOpen();
      try {
        return await backfill.backlog();
      } catch (error) {
        throw translateError(error);
      }
    },
    async health() {
      ctx.ensureOpen();
      try {
        const started = performance.now();
        await sql`SELECT 1`.execute(db);
        const latencyMs = performance.now() - started;
        const { rows } = await sql<{
          version: string;
        }>`SELECT current_setting('server_version') AS version`.execute(db);
        return {
          version: rows[0]?.version ?? 'unknown',
          latencyMs,
          pool: {
            max,
            total: pool.totalCount,
            idle: pool.idleCount,
            waiting: pool.waitingCount,
          },
        };
      } catch (error) {
        throw translateError(error);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...watchers].map((unwatch) => unwatch()));
      // A batch in flight commits (one short transaction) before the pool goes.
      await backfill.stop();
      await countFolder.stop();
      // Events handed in before close are stored (or fail) before the pool goes.
      await events.idle();
      await insertConnection.close();
      await counters.stop();
      // A background ANALYZE holds a connection: let it finish (seconds at most).
      await termStats.idle();
      await Promise.all([db.destroy(), searchDb.destroy()]);
    },
  };
  return storage;
}

/** What `probePostgres` found. */
export interface PostgresProbe {
  /** `server_version`, e.g. `15.20`. */
  version: string;
  /** Connecting plus one round trip, in ms. */
  latencyMs: number;
  /** Migrations applied to the schema (empty before the first collector started). */
  migrations: string[];
}

/**
 * Connects once, without migrating or creating anything, and reports what a health
 * check needs (doctor runs it when no collector is running). Throws StorageError
 * `unavailable` when the server cannot be reached within `timeoutMs`.
 */
export async function probePostgres(
  url: string,
  options: { schema?: string; timeoutMs?: number } = {},
): Promise<PostgresProbe> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new StorageError('invalid_option', `invalid schema name ${JSON.stringify(schema)}`);
  }
  const started = performance.now();
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: options.timeoutMs ?? 2000,
    application_name: 'kiro-learn doctor',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const version = (await client.query<{ v: string }>('SHOW server_version')).rows[0]?.v;
    const latencyMs = performance.now() - started;
    const table = `${schema}.schema_migrations`;
    const exists = (
      await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [table])
    ).rows[0]?.t;
    const migrations = exists
      ? (await client.query<{ name: string }>(`SELECT name FROM ${table} ORDER BY name`)).rows.map(
          (row) => row.name,
        )
      : [];
    return { version: version ?? 'unknown', latencyMs, migrations };
  } catch (error) {
    throw translateError(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** SQLSTATEs worth one more try: a deadlock or serialization failure aborts only its victim. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Every method with driver errors translated (see translateError), retried once after a
 * deadlock or serialization failure.
 */
function guarded<T extends object>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(methods)) {
    const method = value as (...args: never[]) => Promise<unknown>;
    wrapped[name] = async (...args: never[]) => {
      try {
        return await method(...args);
      } catch (error) {
        if (RETRYABLE.has((error as { code?: string }).code ?? '')) {
          try {
            return await method(...args);
          } catch (again) {
            throw translateError(again);
          }
        }
        throw translateError(error);
      }
    };
  }
  return wrapped as T;
}

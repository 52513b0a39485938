import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { ColumnWeights, StorageBackend } from '../backend.js';
import { StorageError } from '../errors.js';
import { DEFAULT_MAX_POSTINGS, type QueryPlanOptions } from '../query/plan.js';
import { DEFAULT_COLUMN_WEIGHTS } from '../query/weights.js';
import { pgBuffer } from './buffer.js';
import { type PgContext, translateError } from './context.js';
import { pgEvents } from './events.js';
import { pgLogs } from './logs.js';
import { migratePostgres } from './migrations.js';
import { pgRecords } from './records.js';
import { pgSearch } from './search.js';
import { pgStats } from './stats.js';
import type { PgTables } from './tables.js';
import { pgVectors } from './vectors.js';

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
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    connectionTimeoutMillis: Math.max(1, Math.trunc(options.acquireTimeoutMs ?? 2000)),
    idleTimeoutMillis: 30_000,
    application_name: 'kiro-learn',
    options: `-c search_path=${schema} -c statement_timeout=${statementTimeoutMs}`,
  });
  // An idle connection that breaks (server restart) must not crash the process: the next
  // query gets a fresh connection, or fails `unavailable`.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client, schema);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw translateError(error);
  }
  const db = new Kysely<PgTables>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  const ctx: PgContext = {
    db,
    ensureOpen() {
      if (closed) throw new StorageError('closed', 'the storage is closed');
    },
  };
  const weights = { ...DEFAULT_COLUMN_WEIGHTS, ...options.weights };
  const plan = { ...options.search };
  const methods = {
    ...pgEvents(ctx),
    ...pgRecords(ctx),
    ...pgSearch(ctx, { weights, plan, maxPostings: plan.maxPostings ?? DEFAULT_MAX_POSTINGS }),
    ...pgBuffer(ctx),
    ...pgLogs(ctx),
    ...pgStats(ctx),
    ...pgVectors(ctx),
  };
  const storage: PostgresStorage = {
    ...guarded(methods),
    db,
    schema,
    async health() {
      ctx.ensureOpen();
      try {
        const started = performance.now();
        await sql`SELECT 1`.execute(db);
        const latencyMs = performance.now() - started;
        const { rows } = await sql<{ version: string }>`SHOW server_version`.execute(db);
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
      await db.destroy();
    },
  };
  return storage;
}

/** SQLSTATEs worth one more try: a deadlock or serialization failure aborts only its victim. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Every method with driver errors translated (see translateError), retried once after a
 * deadlock or serialization failure.
 */
function guarded<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
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

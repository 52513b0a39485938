import {
  CORRUPT_DATABASE_HELP,
  checkDatabaseOffThread,
  type IntegrityReport,
  openSqliteReader,
  openSqliteStorage,
  type StorageBackend,
  StorageError,
  type StorageReader,
} from '@kiro-learn/storage';
import type { CollectorSettings } from './config/settings.js';
import { CollectorError } from './errors.js';
import { VIEWER_MODELS_URL } from './viewer/models.js';

/** What `status`, `doctor` and /v1/status say about the storage. */
export interface StorageHealth {
  backend: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL URL without its password. */
  location: string;
  ok: boolean;
  /** PostgreSQL: server version. */
  version?: string;
  /** PostgreSQL: one round trip, in ms. */
  latency_ms?: number;
  /** PostgreSQL: the connection pool. */
  pool?: { max: number; open: number; idle: number; waiting: number };
  /** Why it is not ok. */
  error?: string;
  /**
   * SQLite: the integrity check the collector runs at start (off the event loop):
   * `checking` until it ends, then `ok` or `damaged`.
   */
  integrity?: 'checking' | 'ok' | 'damaged';
  /** SQLite: what the integrity check found, when damaged. */
  problems?: string[];
}

/** The opened storage and its health check. */
export interface CollectorStorage {
  storage: StorageBackend;
  /**
   * Where list, total and log reads go (the viewer, /v1/stats): on SQLite a worker thread
   * with its own connection, so they never stall ingest; absent where the storage's own
   * reads are already off the event loop (PostgreSQL's pool).
   */
  reads?: StorageReader;
  health(): Promise<StorageHealth>;
}

/** A PostgreSQL URL fit to print: the password replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/**
 * Opens the storage the settings choose: PostgreSQL when `storage.url` is set (the driver
 * is loaded only then), else the SQLite file `database`. Throws CollectorError
 * `start_failed` with what to check when PostgreSQL cannot be reached.
 */
export async function openCollectorStorage(
  settings: CollectorSettings,
  database: string,
  options: { checkIntegrity?: (report: IntegrityReport) => void } = {},
): Promise<CollectorStorage> {
  const { url } = settings.storage;
  if (url === undefined) {
    const storage = await openSqliteStorage({ path: database });
    // A database damaged past its first pages opens fine: the daemon checks every page
    // once at start, on a worker thread, and says so when it is damaged.
    let integrity: IntegrityReport | undefined;
    const checked = options.checkIntegrity;
    if (checked) {
      void checkDatabaseOffThread(database).then((report) => {
        integrity = report;
        checked(report);
      });
    }
    return {
      storage,
      // The viewer's heavy screens run beside that connection (viewer/models.ts).
      reads: openSqliteReader({ path: database, models: VIEWER_MODELS_URL }),
      health: async () => {
        if (!checked) return { backend: 'sqlite', location: database, ok: true };
        if (!integrity)
          return { backend: 'sqlite', location: database, ok: true, integrity: 'checking' };
        if (integrity.ok)
          return { backend: 'sqlite', location: database, ok: true, integrity: 'ok' };
        return {
          backend: 'sqlite',
          location: database,
          ok: false,
          integrity: 'damaged',
          problems: integrity.problems,
          error: `the database is damaged; ${CORRUPT_DATABASE_HELP}`,
        };
      },
    };
  }
  const { openPostgresStorage } = await import('@kiro-learn/storage/postgres');
  const location = redactUrl(url);
  let storage: Awaited<ReturnType<typeof openPostgresStorage>>;
  try {
    storage = await openPostgresStorage({
      url,
      schema: settings.storage.schema,
      poolSize: settings.storage.poolSize,
      acquireTimeoutMs: settings.storage.acquireTimeoutMs,
      statementTimeoutMs: settings.storage.statementTimeoutMs,
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const hint =
      error instanceof StorageError && error.code.startsWith('migration')
        ? ''
        : ': check storage.url (KIRO_LEARN_STORAGE_URL) and that the server runs';
    throw new CollectorError(
      'start_failed',
      `cannot open PostgreSQL at ${location}${hint} (${why.replaceAll(url, location)})`,
      { cause: error },
    );
  }
  return {
    storage,
    async health() {
      try {
        const h = await storage.health();
        return {
          backend: 'postgres',
          location,
          ok: true,
          version: h.version,
          latency_ms: Math.round(h.latencyMs * 100) / 100,
          pool: { max: h.pool.max, open: h.pool.total, idle: h.pool.idle, waiting: h.pool.waiting },
        };
      } catch (error) {
        return {
          backend: 'postgres',
          location,
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}

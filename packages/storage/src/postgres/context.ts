import type { Kysely } from 'kysely';
import { StorageError } from '../errors.js';
import type { PgTables } from './tables.js';

/** What every aggregate module of the PostgreSQL backend works with. */
export interface PgContext {
  readonly db: Kysely<PgTables>;
  /** Throws StorageError `closed` once the backend is closed. */
  ensureOpen(): void;
}

/** ISO time now. */
export const now = (): string => new Date().toISOString();

/**
 * PostgreSQL text cannot hold NUL. Stored columns drop it (an event's JSON keeps it,
 * escaped); a lookup key containing it can match nothing.
 */
export const withoutNul = (text: string): string =>
  text.includes('\0') ? text.replaceAll('\0', '') : text;
export const hasNul = (text: string): boolean => text.includes('\0');

/** SQLSTATE classes and codes that mean "the server is not there right now". */
const UNAVAILABLE_STATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08007',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * Translates driver errors into StorageError: `unavailable` when the server cannot be
 * reached, restarted or has no free connection (callers answer 503 and retry later),
 * `timeout` when a statement ran past the statement timeout. Anything else is returned
 * unchanged.
 */
export function translateError(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (code === '57014') {
    return new StorageError('timeout', `the database cancelled a statement: ${message}`, {
      cause: error,
    });
  }
  if (
    UNAVAILABLE_STATES.has(code) ||
    NETWORK_CODES.has(code) ||
    /timeout exceeded when trying to connect|Connection terminated|connection error|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  ) {
    return new StorageError('unavailable', `the database is unavailable: ${message}`, {
      cause: error,
    });
  }
  return error;
}

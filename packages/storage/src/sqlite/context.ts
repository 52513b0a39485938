import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { StorageError } from '../errors.js';
import type { WriteBatcher } from './batcher.js';
import type { StatementCache } from './statements.js';
import type { Tables } from './tables.js';
import type { WriteStatements } from './writes.js';

/** What every aggregate module of the SQLite backend works with. */
export interface SqliteContext {
  /** Reads go through kysely; writes never do (see `writes`). */
  readonly db: Kysely<Tables>;
  /** The driver, for synchronous statements inside a write. */
  readonly sqlite: Database.Database;
  /** Our prepared-statement cache (kysely prepares through it too). */
  readonly statements: StatementCache;
  /**
   * Every write: runs synchronous statements in the next batch's transaction, so no read
   * or other write interleaves with it and its promise settles after the commit.
   */
  readonly writes: WriteBatcher;
  /** The prepared statements of the writes. */
  readonly w: WriteStatements;
  /** The database file (resolved), or `:memory:`. */
  readonly path: string;
  /** Throws StorageError `closed` once the backend is closed. */
  ensureOpen(): void;
}

/** ISO time now. */
export const now = (): string => new Date().toISOString();

/** UTF-8 size of a text, as stored in the `bytes` columns. */
export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * `select` run on `ids` 500 at a time (SQLite bounds the number of bound parameters), the
 * rows of every chunk in one list; no query at all for no ids.
 */
export async function selectInChunks<T>(
  ids: readonly string[],
  select: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += 500) rows.push(...(await select(ids.slice(i, i + 500))));
  return rows;
}

/** A scan cursor: the last row's key, or 0 for the first page. */
export function scanCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d+$/.test(cursor)) throw new StorageError('invalid_cursor', 'invalid cursor');
  return Number(cursor);
}

import type Database from 'better-sqlite3';
import type { CompiledQuery, SqliteDatabase } from 'kysely';

/**
 * Prepared statements reused by their SQL text, owned by the backend. kysely prepares
 * every query anew, and SQLite's parse and plan then cost more than a small write: reusing
 * statements roughly halves one. Bounded, because `IN (?, ?, …)` lists make one text per
 * length. kysely gets the database through `forKysely()`, so the driver stays untouched.
 */
export class StatementCache {
  readonly #sqlite: Database.Database;
  readonly #max: number;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(sqlite: Database.Database, max = 500) {
    this.#sqlite = sqlite;
    this.#max = max;
  }

  /** The statement for `source`, prepared once (while the cache has room). */
  prepare(source: string): Database.Statement {
    let statement = this.#statements.get(source);
    if (!statement) {
      statement = this.#sqlite.prepare(source);
      if (this.#statements.size < this.#max) this.#statements.set(source, statement);
    }
    return statement;
  }

  /** The rows of a compiled read (see compileOnce), synchronously: no promise per statement. */
  all<R>(query: CompiledQuery<R>): R[] {
    return this.prepare(query.sql).all(query.parameters) as R[];
  }

  /** The database as kysely's SqliteDialect sees it, preparing through this cache. */
  forKysely(): SqliteDatabase {
    return {
      close: () => {
        this.#statements.clear();
        this.#sqlite.close();
      },
      prepare: (source) => this.prepare(source),
    };
  }
}

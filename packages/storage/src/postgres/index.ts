/**
 * @kiro-learn/storage/postgres: the PostgreSQL backend, for a memory server that several
 * collectors (and many developers) share. A subpath of its own so that SQLite-only users
 * never load the `pg` driver.
 *
 * `openPostgresStorage` connects, migrates (forward-only, under an advisory lock) and
 * returns a `StorageBackend` with the same contract as the SQLite one.
 */

export { PG_MIGRATIONS, type PgMigration } from './migrations.js';
export {
  openPostgresStorage,
  type PostgresHealth,
  type PostgresProbe,
  type PostgresStorage,
  type PostgresStorageOptions,
  probePostgres,
} from './open.js';

import { createHash } from 'node:crypto';
import { StorageError } from './errors.js';

/** One forward-only migration: statements run in order, in one transaction. */
export interface Migration {
  /** Sorts in the order migrations run (`0001_initial`, …); stored once applied. */
  name: string;
  statements: readonly string[];
  /**
   * Checksums of this migration's earlier texts, edited before any release: a database that
   * applied one of them is accepted as having applied this one (the migration says why it
   * stays correct).
   */
  earlierChecksums?: readonly string[];
}

/** What is stored of a migration's text: an edited migration no longer matches. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.statements.join('\n;\n')).digest('hex');
}

/**
 * How one backend keeps its migrations (kysely's Driver style: the runner below holds the
 * rules, a backend only talks to its database).
 */
export interface MigrationDriver {
  /** The migrations applied so far, with their checksums (creates their table when missing). */
  applied(): Promise<Array<{ name: string; checksum: string }>>;
  /** Runs the migration's statements and records it (name, checksum, time), in one transaction. */
  apply(migration: Migration, checksum: string): Promise<void>;
}

/**
 * Applies pending migrations in order, each in its own transaction together with its
 * bookkeeping row. Refuses (StorageError `migration_drift`) when the database has a
 * migration this code does not know (written by a newer kiro-learn) or one whose text
 * changed; a failing migration is StorageError `migration_failed`. Returns the names run.
 */
export async function runMigrations(
  migrations: readonly Migration[],
  driver: MigrationDriver,
): Promise<string[]> {
  const applied = await driver.applied();
  const known = new Map(migrations.map((m) => [m.name, m]));
  for (const row of applied) {
    const migration = known.get(row.name);
    if (!migration) {
      throw new StorageError(
        'migration_drift',
        `the database has migration ${row.name}, which this version of kiro-learn does not know: it was written by a newer version; upgrade kiro-learn`,
      );
    }
    if (
      migrationChecksum(migration) !== row.checksum &&
      !migration.earlierChecksums?.includes(row.checksum)
    ) {
      throw new StorageError(
        'migration_drift',
        `migration ${row.name} differs from the one applied to this database (checksum mismatch)`,
      );
    }
  }
  const done = new Set(applied.map((row) => row.name));
  const ran: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    try {
      await driver.apply(migration, migrationChecksum(migration));
    } catch (error) {
      throw new StorageError(
        'migration_failed',
        `migration ${migration.name} failed: ${String(error)}`,
        {
          cause: error,
        },
      );
    }
    ran.push(migration.name);
  }
  return ran;
}

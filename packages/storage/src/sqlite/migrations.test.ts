import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { openSqliteStorage } from '../index.js';
import { MIGRATIONS } from './migrations.js';

describe('migrations', () => {
  it('applies every migration once, and reopening applies nothing', async () => {
    const path = `${tempDir()}/m.db`;
    await (await openSqliteStorage({ path })).close();
    await (await openSqliteStorage({ path })).close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT name FROM schema_migrations ORDER BY name').pluck().all();
    db.close();
    expect(rows).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('refuses a database written by a newer version', async () => {
    const path = `${tempDir()}/newer.db`;
    await (await openSqliteStorage({ path })).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_migrations VALUES ('9999_future', 'x', '2030-01-01')").run();
    db.close();
    await expect(openSqliteStorage({ path })).rejects.toMatchObject({
      code: 'migration_drift',
      message: /newer version/,
    });
  });

  it('refuses a database whose applied migration differs from the code (drift)', async () => {
    const path = `${tempDir()}/drift.db`;
    await (await openSqliteStorage({ path })).close();
    const db = new Database(path);
    db.prepare(
      "UPDATE schema_migrations SET checksum = 'edited' WHERE name = '0001_initial'",
    ).run();
    db.close();
    await expect(openSqliteStorage({ path })).rejects.toMatchObject({
      code: 'migration_drift',
      message: /checksum/,
    });
  });
});

import { freePort, freshSchema, rowsIn } from '@kiro-learn/test-postgres';
import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { onCleanup } from '../../test/helpers.js';
import { PG_MIGRATIONS } from './migrations.js';
import { openPostgresStorage } from './open.js';

const sqlIn = <T extends pg.QueryResultRow>(schema: string, text: string, values?: unknown[]) =>
  rowsIn<T>(inject('postgresUrl'), schema, text, values);

async function openClose(schema: string): Promise<void> {
  await (await openPostgresStorage({ url: inject('postgresUrl'), schema })).close();
}

describe('PostgreSQL migrations', () => {
  it('creates the schema, applies every migration once, and reopening applies nothing', async () => {
    const schema = freshSchema();
    await openClose(schema);
    await openClose(schema);
    const rows = await sqlIn<{ name: string }>(
      schema,
      'SELECT name FROM schema_migrations ORDER BY name',
    );
    expect(rows.map((r) => r.name)).toEqual(PG_MIGRATIONS.map((m) => m.name));
  });

  it('collectors starting at once migrate one at a time and all open', async () => {
    const schema = freshSchema();
    const opened = await Promise.all(
      Array.from({ length: 6 }, () =>
        openPostgresStorage({ url: inject('postgresUrl'), schema, poolSize: 2 }),
      ),
    );
    for (const storage of opened) onCleanup(() => storage.close());
    const rows = await sqlIn<{ name: string }>(schema, 'SELECT name FROM schema_migrations');
    expect(rows).toHaveLength(PG_MIGRATIONS.length);
    expect((await opened[5]!.stats()).events.total).toBe(0);
  });

  it('refuses a database written by a newer version', async () => {
    const schema = freshSchema();
    await openClose(schema);
    await sqlIn(schema, "INSERT INTO schema_migrations VALUES ('9999_future', 'x', '2030-01-01')");
    await expect(openClose(schema)).rejects.toMatchObject({
      code: 'migration_drift',
      message: /newer version/,
    });
  });

  it('refuses a database whose applied migration differs from the code (drift)', async () => {
    const schema = freshSchema();
    await openClose(schema);
    await sqlIn(
      schema,
      "UPDATE schema_migrations SET checksum = 'edited' WHERE name = '0001_initial'",
    );
    await expect(openClose(schema)).rejects.toMatchObject({
      code: 'migration_drift',
      message: /checksum/,
    });
  });

  it('says what is wrong with a bad schema name or an unreachable server', async () => {
    await expect(
      openPostgresStorage({ url: inject('postgresUrl'), schema: 'Robert"; DROP' }),
    ).rejects.toMatchObject({ code: 'invalid_option' });
    const port = await freePort();
    await expect(
      openPostgresStorage({
        url: `postgres://postgres@127.0.0.1:${port}/x`,
        acquireTimeoutMs: 500,
      }),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });
});

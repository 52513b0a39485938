import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { event, openTemp, tempDir } from '../../test/helpers.js';
import { Checkpointer } from './checkpointer.js';

describe('background checkpoints', () => {
  it('move committed events into the database file while the storage stays open', async () => {
    const storage = await openTemp();
    const before = statSync(storage.path).size;
    for (let i = 0; i < 10; i++) {
      await Promise.all(Array.from({ length: 20 }, () => storage.putEvent(event())));
    }
    // 200 events are far below the writer's own autocheckpoint: only the worker copies them.
    await expect
      .poll(() => statSync(storage.path).size, { timeout: 20_000 })
      .toBeGreaterThan(before);
    expect((await storage.stats()).events.total).toBe(200);
  });

  it('stop with close, which then leaves no WAL behind', async () => {
    const storage = await openTemp();
    await storage.putEvent(event());
    await storage.close();
    expect(existsSync(`${storage.path}-wal`)).toBe(false);
  });

  it('stop when close arrives while the worker is copying pages (no lost wake-up)', async () => {
    const path = join(tempDir(), 'wal.db');
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (x BLOB)');
    const insert = writer.prepare('INSERT INTO t VALUES (randomblob(65536))');
    writer.transaction(() => {
      for (let i = 0; i < 800; i++) insert.run();
    })();
    const before = statSync(path).size;
    const checkpointer = new Checkpointer(path, () => {}, 0);
    checkpointer.committed();
    // The database file grows only while the worker copies the 50 MB WAL into it.
    while (statSync(path).size === before) await new Promise((r) => setImmediate(r));
    const closed = await Promise.race([
      checkpointer.close().then(() => 'closed'),
      new Promise((r) => setTimeout(r, 20_000, 'still waiting for the worker')),
    ]);
    writer.close();
    expect(closed).toBe('closed');
  });
});

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { WriteBatcher } from './batcher.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function database(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  open.push(db);
  return db;
}

describe('WriteBatcher', () => {
  it('resolves each write only once another connection can read it', async () => {
    const path = join(tempDir(), 'batch.db');
    const db = database(path);
    db.exec('CREATE TABLE t (v TEXT UNIQUE)');
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const reader = database(path);
    const count = reader.prepare('SELECT count(*) AS n FROM t');

    const writes = ['a', 'b', 'c'].map((v) =>
      batcher.enqueue(() => insert.run(v)).then(() => count.get()),
    );
    expect(await Promise.all(writes)).toEqual([{ n: 3 }, { n: 3 }, { n: 3 }]);
  });

  it('a failing write fails alone: the others in its batch commit', async () => {
    const db = database(join(tempDir(), 'batch.db'));
    db.exec('CREATE TABLE t (v TEXT UNIQUE)');
    const batcher = new WriteBatcher(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');

    const results = await Promise.allSettled([
      batcher.enqueue(() => insert.run('a').changes),
      batcher.enqueue(() => {
        insert.run('b');
        insert.run('a'); // duplicate: this whole write rolls back, 'b' included
      }),
      batcher.enqueue(() => insert.run('c').changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual(['a', 'c']);
  });
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { event, openTemp, tempDir } from '../../test/helpers.js';
import { openSqliteStorage } from '../index.js';

describe('backup', () => {
  it('copies a consistent database while writes go on, holding every write acknowledged before it', async () => {
    const storage = await openTemp();
    const before = Array.from({ length: 300 }, () => event());
    await Promise.all(before.map((e) => storage.putEvent(e)));
    const target = join(tempDir(), 'backups', 'copy.db');
    // Writers keep going while the copy runs.
    const during = Array.from({ length: 300 }, () => event());
    const [result] = await Promise.all([
      storage.backup(target),
      ...during.map((e) => storage.putEvent(e)),
    ]);
    expect(result.bytes).toBeGreaterThan(0);
    const copy = await openSqliteStorage({ path: target });
    try {
      for (const e of before) expect(await copy.getEventJson(e.event_id)).toBe(JSON.stringify(e));
      const total = (await copy.stats()).events.total;
      expect(total).toBeGreaterThanOrEqual(300);
      expect(total).toBeLessThanOrEqual(600);
    } finally {
      await copy.close();
    }
  });

  it('refuses an existing file unless told to overwrite it, and the database itself always', async () => {
    const storage = await openTemp();
    await storage.putEvent(event());
    const target = join(tempDir(), 'copy.db');
    writeFileSync(target, 'my notes, not a backup');
    await expect(storage.backup(target)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/copy\.db exists; nothing was written/),
    });
    expect(readFileSync(target, 'utf8')).toBe('my notes, not a backup');
    expect(readdirSync(dirname(target))).toEqual(['copy.db']);
    await storage.backup(target, { overwrite: true });
    const copy = await openSqliteStorage({ path: target, readOnly: true });
    try {
      expect((await copy.stats()).events.total).toBe(1);
    } finally {
      await copy.close();
    }
    for (const own of [storage.path, `${storage.path}-wal`]) {
      await expect(storage.backup(own, { overwrite: true })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(/is the database itself/),
      });
    }
    expect((await storage.stats()).events.total).toBe(1);
  });
});

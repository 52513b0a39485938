import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { event, openTemp } from '../../test/helpers.js';

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
});

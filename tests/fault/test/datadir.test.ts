import { afterEach, describe, expect, it } from 'vitest';
import {
  envFor,
  freePort,
  healthy,
  kiroLearn,
  kiroLearnAsync,
  NO_MODEL,
  removeHomes,
  spawnCollector,
  tempHome,
} from './harness.js';

afterEach(removeHomes);

describe('one collector per data dir', () => {
  it('refuses a second collector on the same data dir (another port), naming the first', async () => {
    const home = tempHome();
    const port = await freePort();
    const first = await spawnCollector(envFor(home, port, NO_MODEL), port);
    try {
      const other = await freePort();
      const second = kiroLearn(['start', '--foreground'], envFor(home, other, NO_MODEL));
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        new RegExp(`in use by another kiro-learn collector \\(pid ${first.pid}, port ${port}\\)`),
      );
      expect(await healthy(other)).toBe(false);
      expect(await healthy(port)).toBe(true);
    } finally {
      await first.stop();
    }
  });

  it('concurrent `kiro-learn start`: every one exits 0, one collector runs', async () => {
    const home = tempHome();
    const port = await freePort();
    const env = envFor(home, port, NO_MODEL);
    try {
      const runs = await Promise.all([1, 2, 3].map(() => kiroLearnAsync(['start'], env)));
      for (const run of runs) {
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/started \(pid \d+\)|already running \(pid \d+\)/);
      }
      expect(runs.filter((r) => /started/.test(r.stdout))).toHaveLength(1);
      expect(await healthy(port)).toBe(true);
    } finally {
      kiroLearn(['stop'], env);
    }
  });
});

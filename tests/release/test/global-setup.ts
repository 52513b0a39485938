/**
 * vitest globalSetup: the README's first two commands in a fresh clone (fresh.ts), once
 * for the suite; tests read the result with `inject('fresh')`. The install it makes is
 * also what the other release tests install from: a release's tarballs, with everything
 * else from the registry.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshClone, sh } from './fresh.ts';

export default async function setup(project: TestProject): Promise<() => void> {
  const fresh = await freshClone();
  project.provide('fresh', fresh);
  return () => {
    // Whichever collector still runs for this HOME (the clone's, or the installed one's).
    const kiroLearn = join(fresh.binDir, 'kiro-learn');
    sh(kiroLearn, ['stop'], fresh.home, fresh.env);
    sh('./pnpmw', ['kiro-learn', 'stop'], fresh.clone, fresh.env);
    rmSync(fresh.root, { recursive: true, force: true });
  };
}

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.js';

describe('the test command on a machine without Chromium', () => {
  it('stops before running anything, with one line saying how to install it', () => {
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts/test.mjs')], {
      cwd: repoRoot,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^No Chromium at \/nonexistent\/chromium: .*apt-get install chromium.*CHROMIUM_PATH/,
    );
  });
});

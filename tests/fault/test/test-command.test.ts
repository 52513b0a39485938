import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { summarize, timings } from '../../../scripts/test-summary.mjs';
import { repoRoot } from './harness.js';

const scratch = mkdtempSync(join(tmpdir(), 'kiro-learn-test-command-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the test command on a machine without Chromium', () => {
  it('the viewer suite fails with one line, and the summary names it as not run', () => {
    // The collector's viewer suite, run as the test command runs it, but with its report
    // written aside (the collector suite's own report is not this test's to overwrite).
    const report = join(scratch, 'viewer.json');
    const run = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules/vitest/vitest.mjs'),
        'run',
        'test/viewer.test.ts',
        `--outputFile.json=${report}`,
      ],
      {
        cwd: join(repoRoot, 'apps/collector'),
        env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status).toBe(1);
    const line =
      'No Chromium at /nonexistent/chromium: the viewer tests need it. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to its executable.';
    expect(`${run.stdout}${run.stderr}`).toContain(`Error: ${line}`);

    const summary = summarize([report], repoRoot) as {
      passed: number;
      failed: number;
      notRun: string[];
    };
    expect(summary.notRun).toEqual([`apps/collector/test/viewer.test.ts: ${line}`]);
    expect(summary.failed).toBe(1);
    expect(summary.passed).toBe(0);
  });
});

describe('the test command says where the time went', () => {
  it('names each suite with its wall time, slowest first, and its slowest files', () => {
    const report = (suite: string, files: Array<[string, number, number]>) => {
      mkdirSync(join(scratch, suite), { recursive: true });
      const path = join(scratch, suite, 'test-results.json');
      const testResults = files.map(([name, startTime, endTime]) => ({
        name: join(scratch, suite, name),
        startTime,
        endTime,
        assertionResults: [],
      }));
      writeFileSync(path, JSON.stringify({ startTime: 1_000, testResults }));
      return path;
    };
    const quick = report('quick', [['test/a.test.ts', 1_000, 3_000]]);
    const slow = report('slow', [
      ['test/one.test.ts', 1_000, 61_000],
      ['test/two.test.ts', 2_000, 122_000],
      ['test/three.test.ts', 1_500, 2_000],
    ]);
    expect(
      timings([quick, slow, join(scratch, 'missing', 'test-results.json')], scratch, 2),
    ).toEqual([
      'slow 121 s: test/two.test.ts 120 s, test/one.test.ts 60 s',
      'quick 2 s: test/a.test.ts 2 s',
    ]);
  });
});

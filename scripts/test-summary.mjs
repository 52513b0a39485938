// The test command's summary (scripts/test.mjs): passed and failed tests summed from each
// package's vitest JSON report, and every test file that did not run at all (its setup
// failed: no Chromium for the viewer suite, a build missing…), each named with its reason.
// A file that did not run counts as one failure.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * @param {string[]} reports paths of vitest JSON reports (missing ones are skipped)
 * @param {string} root paths in `notRun` are relative to it
 * @returns {{ passed: number, failed: number, reportsRead: number, notRun: string[] }}
 */
export function summarize(reports, root) {
  let passed = 0;
  let failed = 0;
  let reportsRead = 0;
  const notRun = [];
  for (const report of reports) {
    if (!existsSync(report)) continue;
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests ?? 0;
    failed += (json.numFailedTests ?? 0) + (json.numRuntimeErrorTests ?? 0);
    for (const file of json.testResults ?? []) {
      const ran = (file.assertionResults ?? []).some(
        (a) => a.status === 'passed' || a.status === 'failed',
      );
      if (file.status === 'failed' && !ran) {
        notRun.push(`${relative(root, file.name)}: ${String(file.message ?? '').split('\n')[0]}`);
        failed++;
      }
    }
    reportsRead++;
  }
  return { passed, failed, reportsRead, notRun };
}

/**
 * Where the test time went: each suite's wall time (first file's start to last file's
 * end), slowest first, with its slowest files, so a slow suite is named on every run.
 * @param {string[]} reports paths of vitest JSON reports (missing ones are skipped)
 * @param {string} root suite and file names are relative to it
 * @param {number} [files] how many files to name per suite
 * @returns {string[]} one line per suite, e.g. `apps/collector 412 s: test/semantic.test.ts 159 s, …`
 */
export function timings(reports, root, files = 3) {
  const suites = [];
  for (const report of reports) {
    if (!existsSync(report)) continue;
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const results = json.testResults ?? [];
    if (results.length === 0) continue;
    const dir = relative(root, dirname(report));
    const end = Math.max(...results.map((file) => file.endTime ?? 0));
    const start = Math.min(json.startTime ?? end, ...results.map((file) => file.startTime ?? end));
    const slowest = results
      .map((file) => ({
        name: relative(join(root, dir), file.name),
        ms: (file.endTime ?? 0) - (file.startTime ?? 0),
      }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, files)
      .map((file) => `${file.name} ${Math.round(file.ms / 1000)} s`);
    suites.push({ dir, ms: end - start, slowest });
  }
  return suites
    .sort((a, b) => b.ms - a.ms)
    .map((suite) => `${suite.dir} ${Math.round(suite.ms / 1000)} s: ${suite.slowest.join(', ')}`);
}

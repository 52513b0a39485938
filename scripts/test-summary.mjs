// The test command's summary (scripts/test.mjs): passed and failed tests summed from each
// package's vitest JSON report, and every test file that did not run at all (its setup
// failed: no Chromium for the viewer suite, a build missing…), each named with its reason.
// A file that did not run counts as one failure.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

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

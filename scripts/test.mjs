#!/usr/bin/env node
// The repository's one test command (`pnpm test`): lint and format check, type check,
// every package's tests, publint; then the test files that did not run (named, with why)
// and one line `N passed, N failed` summed from each package's vitest JSON report
// (test-summary.mjs). Exits non-zero if any step failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, timings } from './test-summary.mjs';

const root = new URL('..', import.meta.url).pathname;
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  NO_COLOR: process.env.NO_COLOR ?? '1',
};
const reports = ['packages', 'apps', 'tests']
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) =>
    readdirSync(join(root, dir)).map((name) => join(root, dir, name, 'test-results.json')),
  );

const took = [];
function run(label, cmd, args) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  took.push(`${label} ${Math.round((Date.now() - started) / 1000)} s`);
  return result.status === 0;
}

/**
 * The viewer's browser tests need Chromium. Where it is missing, install it when this
 * machine can (root with apt-get: once, quietly). Everything else runs either way: without
 * Chromium the viewer suite fails with its one line, and the summary names it.
 */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  const root = process.getuid?.() === 0;
  if (process.env.CHROMIUM_PATH === undefined && apt && root) {
    console.log('Chromium is missing (the viewer tests need it): installing it with apt-get…');
    spawnSync(
      'sh',
      [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      ],
      { stdio: 'ignore' },
    );
    if (existsSync(path)) return;
  }
  console.log(
    `No Chromium at ${path}: the viewer tests will fail; everything else runs. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to its executable.`,
  );
}

ensureChromium();
for (const report of reports) rmSync(report, { force: true });
const steps = [
  run('lint', 'biome', ['ci', '.']),
  run('typecheck, test, publint', 'turbo', [
    'run',
    'typecheck',
    'test',
    'publint',
    '--continue',
    // Two cores: more suites at once only adds contention (and hang-guard timeouts).
    '--concurrency=4',
    '--output-logs=new-only',
  ]),
];

const { passed, reportsRead, notRun, ...counts } = summarize(reports, root);
let { failed } = counts;
const ok = steps.every(Boolean) && failed === 0 && passed > 0;
if (!steps.every(Boolean) && failed === 0) failed = 1; // a failed lint or build step counts
console.log(`\nwhere the time went: ${took.join(', ')}; the suites, slowest first:`);
for (const line of timings(reports, root)) console.log(`  ${line}`);
console.log(`${reportsRead} test reports read`);
for (const line of notRun) console.log(`did not run: ${line}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);

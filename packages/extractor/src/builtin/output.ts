import { oneLine, truncate } from '../text.js';

/** Totals a test runner printed. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped?: number;
  total?: number;
}

const TEST_COMMAND =
  /\b(?:test|tests|vitest|jest|mocha|ava|pytest|py\.test|unittest|rspec|phpunit|karma|playwright|cypress|nextest|ctest|tox|nox)\b/i;

/** Whether a shell command runs tests (`pnpm test`, `npx vitest run`, `go test ./...`, `cargo test`). */
export function isTestCommand(command: string): boolean {
  return TEST_COMMAND.test(command);
}

function count(line: string, words: string): number | undefined {
  const match = new RegExp(`(\\d+)\\s+(?:${words})\\b`, 'i').exec(line);
  return match ? Number(match[1]) : undefined;
}

/**
 * Reads pass/fail totals from runner output: vitest (`Tests  1 failed | 11 passed (12)`),
 * jest (`Tests: 1 failed, 11 passed, 12 total`), pytest (`== 1 failed, 11 passed in 0.1s ==`),
 * cargo (`test result: FAILED. 11 passed; 1 failed`), mocha (`11 passing`, `1 failing`).
 */
export function parseTestCounts(output: string): TestCounts | undefined {
  const lines = output.split('\n');
  const pick =
    lines.findLast(
      (line) => /^\s*Tests?:?\s+\d/.test(line) && !/Test (?:Files|Suites)/.test(line),
    ) ??
    lines.findLast((line) => /test result:/i.test(line)) ??
    lines.findLast((line) => /^=+ .*\b(?:passed|failed)\b.* =+$/.test(line.trim())) ??
    lines.filter((line) => /\d+\s+(?:passing|failing|pending)\b/.test(line)).join(' ');
  const passed = count(pick, 'passed|passing|pass');
  const failed = count(pick, 'failed|failing|fail|errors?');
  if (passed === undefined && failed === undefined) return undefined;
  const skipped = count(pick, 'skipped|pending|todo|ignored');
  const total = /\((\d+)\)/.exec(pick)?.[1] ?? count(pick, 'total')?.toString();
  return {
    passed: passed ?? 0,
    failed: failed ?? 0,
    ...(skipped ? { skipped } : {}),
    ...(total ? { total: Number(total) } : {}),
  };
}

/** `1 failed, 11 passed of 12` */
export function formatCounts(counts: TestCounts): string {
  const parts = [];
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  parts.push(`${counts.passed} passed`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped`);
  return `${parts.join(', ')}${counts.total === undefined ? '' : ` of ${counts.total}`}`;
}

const FAILING_TEST = [
  /^\s*(?:FAIL|×|✗|✕)\s+(.+?)\s*$/, // vitest, jest (file), node:test
  /^\s*●\s+(.+?)\s*$/, // jest test title
  /^\s*FAILED\s+(\S+)/, // pytest
  /^\s*--- FAIL:\s+(\S+)/, // go
  /^\s*test\s+(\S+)\s+\.\.\.\s+FAILED/, // cargo
  /^\s*\d+\)\s+(.+?)\s*$/, // mocha
];

/** Names of the tests the output reports as failing (at most 5). */
export function failingTests(output: string): string[] {
  const found = new Set<string>();
  for (const line of output.split('\n')) {
    for (const pattern of FAILING_TEST) {
      const name = pattern
        .exec(line)?.[1]
        ?.replace(/\s+\d+(?:\.\d+)?\s*m?s$|\s*\(\d+(?:\.\d+)?m?s\)$/, '');
      if (name && !/^\d+ (?:failed|passed)/.test(name)) {
        found.add(truncate(name, 300));
        break;
      }
    }
    if (found.size >= 5) break;
  }
  return [...found];
}

const ERROR_LINE = [
  /\b[A-Z]\w*(?:Error|Exception)\b(?::|\s+\[)/, // TypeError: …, StripeSignatureVerificationError: …
  /^\s*(?:error|fatal)(?:\[\w+\])?:/i, // rustc, git, gcc
  /^\s*(?:E\s+)?AssertionError\b|^\s*panic:|npm ERR!|ERR_PNPM_\w+/,
  /\b(?:command not found|No such file or directory|Permission denied|ENOENT|EACCES|ECONNREFUSED|Cannot find module|not found)\b/i,
  /\b(?:failed|error)\b/i,
];

/** The most telling error line of some output, on one line (≤ 300 chars). */
export function errorMessage(output: string): string | undefined {
  // Some agents send output with its newlines escaped (`\\n`): lines all the same.
  const lines = output.split(/\n|\\n/).filter((line) => line.trim() !== '');
  for (const pattern of ERROR_LINE) {
    const line = lines.find(
      (candidate) => pattern.test(candidate) && !/^\s*Tests?\s+\d/.test(candidate),
    );
    if (line) return truncate(oneLine(line), 300);
  }
  return undefined;
}

/** `StripeSignatureVerificationError` out of an error line, when it names an error class. */
export function errorName(message: string): string | undefined {
  return /\b([A-Z]\w*(?:Error|Exception))\b/.exec(message)?.[1];
}

import { describe, expect, it } from 'vitest';
import { errorMessage, failingTests, isTestCommand, parseTestCounts } from './output.js';

describe('reading command output', () => {
  it('reads pass/fail totals of common runners', () => {
    expect(
      parseTestCounts(
        ' Test Files  1 failed | 3 passed (4)\n      Tests  1 failed | 11 passed (12)',
      ),
    ).toEqual({ passed: 11, failed: 1, total: 12 });
    expect(parseTestCounts('Tests:       2 failed, 1 skipped, 9 passed, 12 total')).toEqual({
      passed: 9,
      failed: 2,
      skipped: 1,
      total: 12,
    });
    expect(parseTestCounts('=========== 1 failed, 11 passed in 0.42s ===========')).toEqual({
      passed: 11,
      failed: 1,
    });
    expect(parseTestCounts('test result: FAILED. 11 passed; 1 failed; 0 ignored')).toEqual({
      passed: 11,
      failed: 1,
    });
    expect(parseTestCounts('  11 passing (30ms)\n  1 failing')).toEqual({ passed: 11, failed: 1 });
    expect(parseTestCounts('Compiled successfully')).toBeUndefined();
  });

  it('names failing tests and the telling error line', () => {
    const vitest =
      "FAIL src/a.test.ts > parses dates\nTypeError: Cannot read properties of undefined (reading 'x')\n Tests  1 failed (1)";
    expect(failingTests(vitest)).toEqual(['src/a.test.ts > parses dates']);
    expect(errorMessage(vitest)).toBe(
      "TypeError: Cannot read properties of undefined (reading 'x')",
    );
    expect(failingTests('FAILED tests/test_api.py::test_login - AssertionError')).toEqual([
      'tests/test_api.py::test_login',
    ]);
    expect(failingTests('--- FAIL: TestParse (0.00s)')).toEqual(['TestParse']);
    expect(errorMessage('src/main.rs:3:5: error[E0425]: cannot find value `x`')).toBe(
      'src/main.rs:3:5: error[E0425]: cannot find value `x`',
    );
    expect(errorMessage('bash: pnpx: command not found')).toBe('bash: pnpx: command not found');
  });

  it('recognises test commands', () => {
    expect(
      ['pnpm test', 'npx vitest run', 'go test ./...', 'cargo test', 'python -m pytest -q'].every(
        isTestCommand,
      ),
    ).toBe(true);
    expect(['pnpm build', 'git status', 'latest-release.sh'].some(isTestCommand)).toBe(false);
  });
});

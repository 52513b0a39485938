// Shared vitest settings: every package's vitest.config.ts merges this.
// The custom condition makes workspace imports resolve to TypeScript sources, so tests
// never run against a stale dist/. The JSON report feeds the repository-wide
// "N passed, N failed" line (scripts/test.mjs).
import { defineConfig } from 'vitest/config';

export const shared = defineConfig({
  resolve: { conditions: ['@kiro-learn/source'] },
  ssr: { resolve: { conditions: ['@kiro-learn/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Hang guards, not speed limits: CI runs several suites at once on two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // A test file's worker is reused for the next (no test changes process-wide state):
    // a Node start and the shared imports once per worker, not once per file (unit
    // suites: 35% less CPU).
    isolate: false,
    reporters: ['default', 'json'],
    outputFile: { json: './test-results.json' },
  },
});

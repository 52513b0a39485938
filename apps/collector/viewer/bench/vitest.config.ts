// `vitest run --config viewer/bench/vitest.config.ts` (from apps/collector) runs the
// viewer benchmark with the workspace's TypeScript sources, like the tests.
import { defineConfig } from 'vitest/config';
import { shared } from '../../../../vitest.shared.ts';

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ['viewer/bench/*.bench.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 30 * 60_000,
    reporters: ['default'],
    outputFile: {},
  },
});

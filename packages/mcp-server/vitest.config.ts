import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// The tests drive the real bin (dist/cli.js) as a child process, so build it first.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['test/global-setup.ts'] } }),
);

import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// The process tests run the real bundled hook scripts: build them once per run.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['./test/global-setup.ts'] } }),
);

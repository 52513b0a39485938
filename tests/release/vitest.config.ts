import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// The README's quick start runs once, in a fresh clone, before any test file (fresh.ts).
const globalSetup = fileURLToPath(new URL('./test/global-setup.ts', import.meta.url));

// A process per test file: few files, each a long run of installed programs.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: [globalSetup], isolate: true } }),
);

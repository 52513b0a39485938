import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// The README's quick start runs once, in a fresh clone, before any test file (fresh.ts).
const globalSetup = fileURLToPath(new URL('./test/global-setup.ts', import.meta.url));

// A process per test file: few files, each a long run of installed programs. Two at once:
// they mostly wait on npm, pnpm and the installed commands (the whole suite is ~97 CPU-s),
// and each works in a directory and on a port of its own.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: [globalSetup], isolate: true, maxWorkers: 2 } }),
);

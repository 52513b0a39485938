import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// One PostgreSQL for the whole run (the conformance suite runs every backend).
const globalSetup = fileURLToPath(import.meta.resolve('@kiro-learn/test-postgres/global-setup'));

// A process per test file: the PostgreSQL pools a file opens end with it (the server's
// connections are shared with every other suite running at the same time).
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: [globalSetup], isolate: true } }),
);

import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// One PostgreSQL for the whole run: collectors on PostgreSQL are tested against a real one.
const globalSetup = fileURLToPath(import.meta.resolve('@kiro-learn/test-postgres/global-setup'));

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: [globalSetup],
      // Most of this suite's time is spent waiting on child processes (collectors starting,
      // draining, being killed), so two files run at once even on two cores: every test
      // uses its own data dir, port 0 and PostgreSQL schema.
      maxWorkers: 2,
      // Files whose tests run side by side (describe.concurrent: the CLI and data-command
      // tests) run three at a time: more collectors at once on a loaded machine answer their
      // CLI's probes too late (seen with five at a time and three workers at load 17).
      maxConcurrency: 3,
    },
  }),
);

import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// Pages run side by side (each with its own collector); three at a time is enough on
// two shared cores.
export default mergeConfig(shared, defineConfig({ test: { maxConcurrency: 3 } }));

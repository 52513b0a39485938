import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// A process per test file: few files, each a long run of real agents' hooks.
export default mergeConfig(shared, defineConfig({ test: { isolate: true } }));

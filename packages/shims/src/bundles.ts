import { fileURLToPath } from 'node:url';

/**
 * Where the built hook bundles are: `dist/bin` of this package. This file sits directly
 * in `src/` or `dist/`, so one relative URL fits both.
 */
export function defaultBundleDir(): string {
  return fileURLToPath(new URL('../dist/bin/', import.meta.url));
}

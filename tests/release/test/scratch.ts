import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A scratch directory for this test file (`kiro-learn-<name>-…`), removed after its tests. */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `kiro-learn-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

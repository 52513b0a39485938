import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './docs.js';

describe('docs/configuration.md', () => {
  it('is what the generator makes from the settings schema today', () => {
    // The generator runs as a user would run it: Node on the script, against the built package.
    const script = join(repoRoot, 'apps/collector/scripts/gen-config-docs.ts');
    const result = spawnSync(process.execPath, [script, '--check'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

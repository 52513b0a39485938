import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OTHER_ENV_VARIABLES, settingsEnvVariables } from 'kiro-learn';
import { describe, expect, it } from 'vitest';
import { pages, repoRoot } from './docs.js';

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

describe('settings, environment variables and docs in step', () => {
  const configuration = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
  const table = new Map(
    [...configuration.matchAll(/^\| `([a-zA-Z.]+)` +\|[^|]*\|[^|]*\|([^|]*)\|/gm)].map((m) => [
      m[1]!,
      m[2]!.trim(),
    ]),
  );

  it('the settings table gives every key the variable the collector reads', () => {
    for (const variable of settingsEnvVariables()) {
      const key = variable.path.join('.');
      expect(table.get(key), `docs/configuration.md has no row for ${key}`).toBeDefined();
      expect(table.get(key)).toContain(`\`${variable.name}\``);
    }
    expect(table.size).toBe(settingsEnvVariables().length);
  });

  it('every KIRO_LEARN_* variable the docs mention is one kiro-learn reads', () => {
    const known = new Set([
      ...settingsEnvVariables().flatMap((v) => [v.name, ...v.aliases]),
      ...OTHER_ENV_VARIABLES.map(([name]) => name),
    ]);
    const texts = [
      ['README.md', readFileSync(join(repoRoot, 'README.md'), 'utf8')],
      ...pages().map((p) => [`docs/${p.name}`, p.text]),
    ];
    for (const [name, text] of texts) {
      for (const [variable] of text!.matchAll(/\bKIRO_LEARN_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        expect(known, `${name} mentions ${variable}`).toContain(variable);
      }
    }
  });
});

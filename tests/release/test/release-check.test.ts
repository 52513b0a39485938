import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './pack.js';
import { scratchDir } from './scratch.js';

// scripts/release-check.mjs: publint, the metadata npm shows, and each tarball's files.
const script = join(repoRoot, 'scripts/release-check.mjs');
const run = (...dirs: string[]) =>
  spawnSync(process.execPath, [script, ...dirs], { cwd: repoRoot, encoding: 'utf8' });

const scratch = scratchDir('release-check');

describe('release check', () => {
  it('passes for every public package of the workspace', () => {
    const result = run();
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^release check: ok$/m);
    expect(result.status).toBe(0);
  }, 300_000); // packs every package: a hang guard that fits a loaded two-core machine

  it('names each problem of a package that is not ready to publish', () => {
    const dir = join(scratch, 'schema');
    cpSync(join(repoRoot, 'packages/schema'), dir, {
      recursive: true,
      filter: (src) => !src.includes('node_modules'),
    });
    rmSync(join(dir, 'LICENSE'));
    writeFileSync(join(dir, 'dist/leak.test.js'), 'export {};\n');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    pkg.bin = { 'kiro-learn-test-agent': './dist/index.js' };
    delete pkg.repository;
    delete pkg.engines;
    // Outside the workspace, catalog: ranges cannot resolve.
    delete pkg.dependencies;
    delete pkg.devDependencies;
    pkg.files = ['dist'];
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));

    const result = run(dir);
    expect(result.status).toBe(1);
    const problems = result.stderr.trim().split('\n');
    expect(problems).toEqual(
      expect.arrayContaining([
        '@kiro-learn/schema: LICENSE is missing from the package directory',
        expect.stringMatching(/^@kiro-learn\/schema: repository must be /),
        expect.stringMatching(/^@kiro-learn\/schema: engines\.node must be /),
        '@kiro-learn/schema: bin "kiro-learn-test-agent" is for tests: run it by path, do not publish it',
        '@kiro-learn/schema: the tarball lacks LICENSE',
        '@kiro-learn/schema: the tarball holds a test file: dist/leak.test.js',
      ]),
    );
  });
});
